package io.github.avgateway.jms;

import io.github.avgateway.jms.client.ScanCommand;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The JMS gateway as a program. Without arguments (or with Spring Boot options) it runs the
 * gateway; {@code scan FILE...} instead sends files to a running gateway and prints the verdicts
 * (see {@link ScanCommand}).
 */
@SpringBootApplication
public class GatewayJmsApplication {

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("scan")) {
      System.exit(
          ScanCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
    }
    SpringApplication.run(GatewayJmsApplication.class, args);
  }
}
