package io.github.avgateway.amqp.pipe;

import io.github.avgateway.amqp.GatewayAmqpApplication;
import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.testing.AmqpPipeDriver;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.contract.AbstractCleanPipeContractTests;
import io.github.avgateway.core.contract.PipeDriver;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.testing.TestEnv;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The clean-pipe contract, run against the AMQP gateway on the real RabbitMQ with the real clamd
 * (offline signatures) and an embedded Solr, two pipes configured: {@code uploads.*} and {@code
 * broken.*}, each queue name with a suffix of this run.
 */
@SpringBootTest(classes = GatewayAmqpApplication.class)
@DirtiesContext
class AmqpCleanPipeContractIT extends AbstractCleanPipeContractTests {

  private static final int MAX_SIZE = 64 * 1024;
  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "pipe.requests." + SUFFIX;
  private static final String DLX = "pipe.dlx." + SUFFIX;
  private static final String DLQ = "pipe.dead." + SUFFIX;
  private static final String HISTORY = "pipe.history." + SUFFIX;
  private static final String HISTORY_DLQ = "pipe.history.dlq." + SUFFIX;
  private static final List<String> UPLOADS = pipe("uploads");
  private static final List<String> BROKEN = pipe("broken");

  /** Inbox, clean, quarantine, rejected of a pipe named {@code name}. */
  private static List<String> pipe(String name) {
    return List.of("inbox", "clean", "quarantine", "rejected").stream()
        .map(role -> name + "." + role + "." + SUFFIX)
        .toList();
  }

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    registry.add("spring.rabbitmq.port", RabbitIt::port);
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("avgateway.clamd.max-size", () -> MAX_SIZE + "B");
    registry.add("avgateway.solr.mode", () -> "embedded");
    registry.add("avgateway.solr.embedded.home", () -> "target/pipe-solr-" + SUFFIX);
    registry.add("avgateway.amqp.request-queue", () -> REQUESTS);
    registry.add("avgateway.amqp.dead-letter-exchange", () -> DLX);
    registry.add("avgateway.amqp.dead-letter-queue", () -> DLQ);
    registry.add("avgateway.amqp.consumers", () -> 2);
    registry.add("avgateway.history.queue", () -> HISTORY);
    registry.add("avgateway.history.dead-letter-queue", () -> HISTORY_DLQ);
    register(registry, 0, UPLOADS);
    register(registry, 1, BROKEN);
  }

  private static void register(DynamicPropertyRegistry registry, int i, List<String> queues) {
    String prefix = "avgateway.amqp.pipes[" + i + "].";
    registry.add(prefix + "inbox", () -> queues.get(0));
    registry.add(prefix + "clean", () -> queues.get(1));
    registry.add(prefix + "quarantine", () -> queues.get(2));
    registry.add(prefix + "rejected", () -> queues.get(3));
  }

  @Autowired HistoryQueries queries;
  @Autowired AmqpAdmin admin;
  @Autowired IntakeWatcher watcher;
  @Autowired HistoryIndexerRunner indexer;

  @Override
  protected PipeDriver createPipeDriver() {
    return new AmqpPipeDriver(
        Map.of(PipeDriver.Pipe.UPLOADS, UPLOADS, PipeDriver.Pipe.BROKEN, BROKEN),
        DLQ,
        MAX_SIZE,
        id -> queries.byRequestId("amqp", id));
  }

  @AfterAll
  void deleteQueues() {
    // Stop consuming first: a running container would declare a deleted queue again.
    watcher.stop();
    indexer.stop();
    for (String queue : List.of(REQUESTS, DLQ, HISTORY, HISTORY_DLQ)) {
      admin.deleteQueue(queue);
    }
    UPLOADS.forEach(admin::deleteQueue);
    BROKEN.forEach(admin::deleteQueue);
    admin.deleteExchange(DLX);
  }
}
