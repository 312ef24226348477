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

  private static final String NETTY_NO_UNSAFE = "io.netty.noUnsafe";

  /**
   * Netty 4.2 leaves {@code sun.misc.Unsafe} alone on JDK 24+ unless told otherwise, and then
   * cannot free the direct buffers Artemis' NIO journal allocates: a persistent broker fails to
   * load its journal on restart ("Cannot clean arbitrary ByteBuffer instances"). Set before any
   * Netty class loads; an explicit {@code -Dio.netty.noUnsafe} wins.
   */
  static void allowNettyUnsafe() {
    if (System.getProperty(NETTY_NO_UNSAFE) == null) {
      System.setProperty(NETTY_NO_UNSAFE, "false");
    }
  }

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("scan")) {
      System.exit(
          ScanCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
    }
    allowNettyUnsafe();
    SpringApplication.run(GatewayJmsApplication.class, args);
  }
}
