package io.github.avgateway.amqp.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.testing.FakeScanner;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.SwitchableGate;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Common ground of the gateway ITs on the {@link TestGateway}: queue names unique to the test
 * class, a connection of the test's own, a reply queue the default allow-list accepts, inboxes for
 * replies and dead-letters, and clean-up of everything declared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DirtiesContext
public abstract class GatewayItSupport {

  protected static final Duration WAIT = Duration.ofSeconds(30);

  @Autowired protected InMemoryHistory history;
  @Autowired protected FakeScanner scanner;
  @Autowired protected SwitchableGate gate;
  @Autowired protected AmqpAdmin admin;
  @Autowired protected IntakeWatcher watcher;

  @Autowired(required = false)
  protected HistoryIndexerRunner indexer;

  protected CachingConnectionFactory testConnection;
  protected RabbitTemplate rabbit;
  protected QueueInbox replies;
  protected QueueInbox deadLetters;

  /** The gateway's queue names for one test class. */
  public record Names(
      String requests, String dlx, String dlq, String replies, String history, String historyDlq) {
    public static Names unique(String prefix) {
      String suffix = RabbitIt.uniqueSuffix();
      return new Names(
          prefix + ".requests." + suffix,
          prefix + ".dlx." + suffix,
          prefix + ".dead." + suffix,
          "av.reply." + prefix + "." + suffix,
          prefix + ".history." + suffix,
          prefix + ".history.dlq." + suffix);
    }
  }

  /** The names of the subclass's gateway. */
  protected abstract Names names();

  /** Properties of a gateway with test doubles for clamd and history, on {@code names}. */
  protected static void register(DynamicPropertyRegistry registry, Names names) {
    registry.add("avgateway.clamd.enabled", () -> false);
    // The fake scanner reports a signature version, so auto would cache: every request is scanned.
    registry.add("avgateway.pipeline.cache.enabled", () -> "false");
    registry.add("avgateway.solr.enabled", () -> false);
    registry.add("spring.rabbitmq.port", RabbitIt::port);
    registry.add("avgateway.amqp.request-queue", names::requests);
    registry.add("avgateway.amqp.dead-letter-exchange", names::dlx);
    registry.add("avgateway.amqp.dead-letter-queue", names::dlq);
    registry.add("avgateway.history.queue", names::history);
    registry.add("avgateway.history.dead-letter-queue", names::historyDlq);
    registry.add("avgateway.amqp.consumers", () -> 2);
    registry.add("avgateway.amqp.intake-check-interval", () -> "100ms");
  }

  @BeforeAll
  void connect() {
    testConnection = RabbitIt.connectionFactory();
    rabbit = new RabbitTemplate(testConnection);
    admin.declareQueue(new Queue(names().replies(), false, false, false));
    replies = new QueueInbox(rabbit, names().replies());
    deadLetters = new QueueInbox(rabbit, names().dlq());
  }

  @AfterAll
  void cleanUp() {
    // Stop consuming first: a running container would declare a deleted queue again.
    watcher.stop();
    if (indexer != null) {
      indexer.stop();
    }
    admin.deleteQueue(names().replies());
    admin.deleteQueue(names().requests());
    admin.deleteQueue(names().dlq());
    admin.deleteQueue(names().history());
    admin.deleteQueue(names().historyDlq());
    admin.deleteExchange(names().dlx());
    testConnection.destroy();
  }

  /** Sends a request with a fresh message id and returns that id. */
  protected String send(byte[] body, String replyTo, String correlation) {
    return send(UUID.randomUUID().toString(), body, replyTo, correlation);
  }

  protected String send(String id, byte[] body, String replyTo, String correlation) {
    MessageProperties props = new MessageProperties();
    props.setMessageId(id);
    props.setCorrelationId(correlation);
    props.setReplyTo(replyTo);
    rabbit.send("", names().requests(), new Message(body, props));
    return id;
  }

  /** The history document of {@code requestId}, once recorded. */
  protected MessageInfo awaitDocument(String requestId) {
    await().atMost(WAIT).until(() -> history.find("amqp", requestId).isPresent());
    return history.find("amqp", requestId).orElseThrow();
  }

  protected static void assertDeadLetter(Message dead, DeadLetterReason reason) {
    assertThat(dead.getMessageProperties().getHeaders())
        .containsEntry("avReason", reason.name())
        .containsKey("avReasonDetail");
  }

  protected static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
