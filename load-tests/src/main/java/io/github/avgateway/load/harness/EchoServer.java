package io.github.avgateway.load.harness;

import java.nio.file.Path;
import org.apache.activemq.artemis.core.server.JournalType;

/**
 * Runs a broker echo for the harness in its own JVM, as the gateway runs in its own: {@code
 * EchoServer amqp HOST PORT QUEUE quorum|classic [history]} or {@code EchoServer jms CORE_URL
 * DATA_DIR QUEUE persistent|transient [history]} ({@code history}: the echo also sends each batch's
 * history message and drains the history queue, as a gateway with history does on its broker).
 * Prints {@code READY}, then echoes until its input closes.
 */
public final class EchoServer {

  private EchoServer() {}

  public static void main(String[] args) throws Exception {
    boolean history = args.length > 5 && args[5].equals("history");
    AutoCloseable echo =
        switch (args[0]) {
          case "amqp" ->
              new AmqpEcho(
                  args[1],
                  Integer.parseInt(args[2]),
                  args[3],
                  "quorum".equals(args[4]),
                  history,
                  4,
                  32,
                  16,
                  5);
          case "jms" ->
              new JmsEcho(
                  args[1],
                  Path.of(args[2]),
                  "persistent".equals(args[4]),
                  JournalType.NIO,
                  args[3],
                  history,
                  4,
                  32);
          default -> throw new IllegalArgumentException("amqp or jms, not " + args[0]);
        };
    System.out.println("READY");
    System.out.flush();
    while (System.in.read() >= 0) {
      // runs until the harness closes our input (or ends the process)
    }
    echo.close();
    System.exit(0);
  }
}
