package io.github.avgateway.load.harness;

import io.github.avgateway.core.port.HistoryRecorder;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.boot.SpringApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Runs a gateway for the harness, in its own JVM: {@code GatewayLauncher amqp|jms on|off
 * [--spring.args ...]}. The application is the module's own (same auto-configuration as {@code java
 * -jar}); "off" turns the history stream off and replaces the Solr history with a recorder that
 * accepts every document at once, to measure what history costs. The other front-end is excluded.
 * Prints {@code READY} once the context is up, and with {@code -Dharness.heapLog=FILE} appends the
 * heap in use and the old generation after the last collection every 5 s.
 */
public final class GatewayLauncher {

  private static final String AMQP_APP = "io.github.avgateway.amqp.GatewayAmqpApplication";
  private static final String JMS_APP = "io.github.avgateway.jms.GatewayJmsApplication";
  private static final String AMQP_AUTO =
      "io.github.avgateway.amqp.config.AmqpGatewayAutoConfiguration";
  private static final String JMS_AUTO =
      "io.github.avgateway.jms.config.JmsGatewayAutoConfiguration";

  private GatewayLauncher() {}

  public static void main(String[] args) throws Exception {
    boolean amqp = "amqp".equals(args[0]);
    boolean history = "on".equals(args[1]);
    List<Class<?>> sources = new ArrayList<>();
    sources.add(Class.forName(amqp ? AMQP_APP : JMS_APP));
    List<String> springArgs = new ArrayList<>(Arrays.asList(args).subList(2, args.length));
    String other = amqp ? JMS_AUTO : AMQP_AUTO;
    if (present(other)) {
      springArgs.add("--spring.autoconfigure.exclude=" + other);
    }
    if (springArgs.stream().noneMatch(a -> a.startsWith("--server.port="))) {
      springArgs.add("--server.port=0"); // the history page on a free port, never a fixed one
    }
    if (!history) {
      sources.add(NoHistory.class);
      springArgs.add("--avgateway.solr.enabled=false");
      springArgs.add("--avgateway.history.enabled=false"); // no history message on the broker
    }
    String heapLog = System.getProperty("harness.heapLog");
    if (heapLog != null) {
      Thread.ofPlatform().daemon().name("heap-log").start(() -> logHeap(Path.of(heapLog)));
    }
    SpringApplication app = new SpringApplication(sources.toArray(Class<?>[]::new));
    app.setKeepAlive(true);
    app.run(springArgs.toArray(String[]::new));
    PrintStream out = System.out;
    out.println("READY");
    out.flush();
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, GatewayLauncher.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private static void logHeap(Path file) {
    var memory = ManagementFactory.getMemoryMXBean();
    try {
      while (true) {
        long oldAfterGc = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
          if (pool.getType() == MemoryType.HEAP
              && pool.getCollectionUsage() != null
              && pool.getName().toLowerCase(java.util.Locale.ROOT).contains("old")) {
            oldAfterGc += pool.getCollectionUsage().getUsed();
          }
        }
        String line =
            System.currentTimeMillis()
                + " used="
                + memory.getHeapMemoryUsage().getUsed()
                + " oldAfterLastGc="
                + oldAfterGc
                + "\n";
        Files.writeString(
            file,
            line,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
        Thread.sleep(5000);
      }
    } catch (IOException | InterruptedException e) {
      // the log stops; the gateway goes on
    }
  }

  /** History off: every document is accepted at once and goes nowhere. */
  @Configuration(proxyBeanMethods = false)
  static class NoHistory {
    @Bean
    HistoryRecorder noHistory() {
      return info -> CompletableFuture.completedFuture(null);
    }
  }
}
