package io.github.avgateway.jms.fault;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The JMS gateway exactly as the product wires it (auto-configuration only), for the fault runs: in
 * the test JVM, or as a JVM of its own that a test kills. Unlike {@code GatewayJmsApplication} it
 * scans no package, so the test class path's fakes never get in. Logs the product's ready line.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class FaultGatewayMain {

  /** Runs the gateway with Spring Boot {@code args}. */
  public static ConfigurableApplicationContext run(String... args) {
    if (System.getProperty("io.netty.noUnsafe") == null) {
      System.setProperty("io.netty.noUnsafe", "false");
    }
    return SpringApplication.run(FaultGatewayMain.class, args);
  }

  public static void main(String[] args) {
    run(args);
  }
}
