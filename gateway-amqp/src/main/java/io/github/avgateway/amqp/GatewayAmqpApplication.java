package io.github.avgateway.amqp;

import io.github.avgateway.amqp.client.ScanCli;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The AMQP gateway. {@code java -jar gateway-amqp.jar} runs it; {@code java -jar gateway-amqp.jar
 * scan FILE...} instead scans files through a running gateway and prints their verdicts. Everything
 * comes from auto-configuration (clamd, Solr history, this front-end); nothing is
 * component-scanned.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class GatewayAmqpApplication {

  public static void main(String[] args) {
    if (args.length > 0 && "scan".equals(args[0])) {
      // Set before the first logger exists: the command line prints verdicts, not broker chatter.
      System.setProperty("logback.configurationFile", "avgateway-cli-logback.xml");
      System.exit(ScanCli.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
    }
    SpringApplication.run(GatewayAmqpApplication.class, args);
  }
}
