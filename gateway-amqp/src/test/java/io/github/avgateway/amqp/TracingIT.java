package io.github.avgateway.amqp;

import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.testing.QueueInbox;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.testing.AbstractTracingTests;
import io.github.avgateway.core.testing.ExampleCallers;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.testing.ZipkinServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Tracing against a real Zipkin server: the AMQP gateway (real RabbitMQ, clamd and embedded Solr)
 * with tracing on and every trace sampled, and the Python example caller (pika) sending a file
 * inside its own span. Zipkin holds one trace with the caller's span and the gateway's, correctly
 * parented; a malformed traceparent is scanned as usual in a new trace; a dead-letter and a
 * clean-pipe forward carry the gateway's context.
 */
@SpringBootTest(classes = GatewayAmqpApplication.class)
@DirtiesContext
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TracingIT extends AbstractTracingTests {

  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "tracing.requests." + SUFFIX;
  private static final String DLX = "tracing.dlx." + SUFFIX;
  private static final String DLQ = "tracing.dead." + SUFFIX;
  private static final String HISTORY = "tracing.history." + SUFFIX;
  private static final String HISTORY_DLQ = "tracing.history.dead." + SUFFIX;
  private static final List<String> PIPE =
      List.of("inbox", "clean", "quarantine", "rejected").stream()
          .map(role -> "tracing.pipe." + role + "." + SUFFIX)
          .toList();
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static ZipkinServer zipkin;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) throws IOException {
    zipkin = ZipkinServer.start();
    registry.add("spring.rabbitmq.port", RabbitIt::port);
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("avgateway.solr.embedded.home", () -> "target/tracing-solr-" + SUFFIX);
    registry.add("avgateway.amqp.request-queue", () -> REQUESTS);
    registry.add("avgateway.amqp.dead-letter-exchange", () -> DLX);
    registry.add("avgateway.amqp.dead-letter-queue", () -> DLQ);
    registry.add("avgateway.history.queue", () -> HISTORY);
    registry.add("avgateway.history.dead-letter-queue", () -> HISTORY_DLQ);
    registry.add("management.tracing.export.enabled", () -> "true");
    registry.add("management.tracing.sampling.probability", () -> "1.0");
    registry.add("management.tracing.export.zipkin.endpoint", zipkin::spansEndpoint);
    List<String> roles = List.of("inbox", "clean", "quarantine", "rejected");
    for (int i = 0; i < roles.size(); i++) {
      String queue = PIPE.get(i);
      registry.add("avgateway.amqp.pipes[0]." + roles.get(i), () -> queue);
    }
  }

  TracingIT() {
    super("python-caller", "av-gateway-amqp");
  }

  @Override
  protected ZipkinServer zipkin() {
    return zipkin;
  }

  @AfterAll
  static void stopZipkin(
      @Autowired AmqpAdmin admin,
      @Autowired IntakeWatcher watcher,
      @Autowired HistoryIndexerRunner indexer) {
    if (zipkin != null) {
      zipkin.close();
    }
    // Stop consuming first: a running container would declare a deleted queue again.
    watcher.stop();
    indexer.stop();
    List.of(REQUESTS, DLQ, HISTORY, HISTORY_DLQ).forEach(admin::deleteQueue);
    PIPE.forEach(admin::deleteQueue);
    admin.deleteExchange(DLX);
  }

  @Override
  protected String deadLetterTraceparent(String traceparent, String correlationId) {
    MessageProperties props = new MessageProperties();
    props.setCorrelationId(correlationId);
    props.setReplyTo("tracing.replies.unused." + SUFFIX);
    props.setHeader("traceparent", traceparent);
    byte[] body = "a request without message_id".getBytes(StandardCharsets.US_ASCII);
    return sendAndTake(
        REQUESTS, new Message(body, props), DLQ, QueueInbox.correlationId(correlationId));
  }

  @Override
  protected String forwardTraceparent(String traceparent, String id) {
    MessageProperties props = new MessageProperties();
    props.setMessageId(id);
    props.setHeader("traceparent", traceparent);
    Message file = new Message(ContractFiles.clean(System.nanoTime()), props);
    return sendAndTake(PIPE.get(0), file, PIPE.get(1), QueueInbox.messageId(id));
  }

  /**
   * Sends {@code message} to {@code queue}; the traceparent of the match taken from {@code from}.
   */
  private static String sendAndTake(
      String queue, Message message, String from, Predicate<Message> match) {
    CachingConnectionFactory connection = RabbitIt.connectionFactory();
    try {
      RabbitTemplate rabbit = new RabbitTemplate(connection);
      rabbit.send("", queue, message);
      Message out = new QueueInbox(rabbit, from).await(match, WAIT);
      Object carried = out.getMessageProperties().getHeaders().get("traceparent");
      return carried == null ? null : carried.toString();
    } finally {
      connection.destroy();
    }
  }

  @Override
  protected ExampleCallers.Run scan(Path file, String correlationId, List<String> extra) {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            file.toString(),
            "--url",
            "amqp://guest:guest@127.0.0.1:" + RabbitIt.port() + "/%2F",
            "--queue",
            REQUESTS,
            "--correlation-id",
            correlationId));
    args.addAll(extra);
    return ExampleCallers.python("amqp_scan.py", args);
  }
}
