package io.github.avgateway.amqp;

import static io.github.avgateway.amqp.testing.QueueInbox.correlationId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.testing.QueueInbox;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.amqp.testing.TestGateway;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.testing.FakeScanner;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.TcpProxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueInformation;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gateway's broker connection is cut (through an in-JVM TCP proxy) twice while requests are in
 * flight. It must reconnect by itself, and every request must end up answered and recorded, with
 * nothing left in the queue: lost = 0 (a request may be answered twice, with the same verdict).
 */
@SpringBootTest(classes = TestGateway.class)
@DirtiesContext
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectionLossIT {

  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "it.requests." + SUFFIX;
  private static final String DLX = "it.dlx." + SUFFIX;
  private static final String DLQ = "it.dead." + SUFFIX;
  private static final String REPLIES = "av.reply.it." + SUFFIX;
  private static final int REQUEST_COUNT = 60;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static TcpProxy proxy;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) throws Exception {
    proxy = TcpProxy.to(RabbitIt.port());
    // clamd and history are test doubles here: keep the real ones' auto-configuration out
    registry.add("avgateway.clamd.enabled", () -> false);
    // The fake scanner reports a signature version, so auto would cache: every request is scanned.
    registry.add("avgateway.pipeline.cache.enabled", () -> "false");
    registry.add("avgateway.solr.enabled", () -> false);
    registry.add("spring.rabbitmq.port", proxy::port);
    registry.add("avgateway.amqp.request-queue", () -> REQUESTS);
    registry.add("avgateway.amqp.dead-letter-exchange", () -> DLX);
    registry.add("avgateway.amqp.dead-letter-queue", () -> DLQ);
    registry.add("avgateway.history.queue", () -> DLQ + ".history");
    registry.add("avgateway.history.dead-letter-queue", () -> DLQ + ".history.dlq");
    registry.add("avgateway.amqp.consumers", () -> 2);
    registry.add("avgateway.amqp.prefetch", () -> 8);
    registry.add("avgateway.amqp.batch-size", () -> 4);
    registry.add("avgateway.amqp.recovery-interval", () -> "200ms");
  }

  @Autowired FakeScanner scanner;
  @Autowired InMemoryHistory history;
  @Autowired IntakeWatcher watcher;
  @Autowired HistoryIndexerRunner indexer;

  private CachingConnectionFactory direct;
  private RabbitAdmin admin;
  private RabbitTemplate rabbit;

  @BeforeAll
  void connect() {
    direct = RabbitIt.connectionFactory();
    admin = new RabbitAdmin(direct);
    rabbit = new RabbitTemplate(direct);
    admin.declareQueue(new Queue(REPLIES, false, false, false));
  }

  @AfterAll
  void cleanUp() throws Exception {
    watcher.stop();
    indexer.stop();
    admin.deleteQueue(REPLIES);
    admin.deleteQueue(REQUESTS);
    admin.deleteQueue(DLQ);
    admin.deleteQueue(DLQ + ".history");
    admin.deleteQueue(DLQ + ".history.dlq");
    admin.deleteExchange(DLX);
    direct.destroy();
    proxy.close();
  }

  @Test
  void cutConnectionsRecoverAndNoRequestIsLost() {
    scanner.delay(Duration.ofMillis(25));
    QueueInbox replies = new QueueInbox(rabbit, REPLIES);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < REQUEST_COUNT; i++) {
      ids.add(send("request " + i));
    }
    int connectionsBefore = proxy.connections();

    awaitReplies(replies, ids, REQUEST_COUNT / 4);
    proxy.cutAll();
    awaitReplies(replies, ids, REQUEST_COUNT / 2);
    proxy.cutAll();

    awaitReplies(replies, ids, REQUEST_COUNT);
    assertThat(proxy.connections()).as("the gateway reconnected").isGreaterThan(connectionsBefore);
    assertThat(history.calls())
        .as("requests in flight at a cut were delivered again")
        .anyMatch(MessageInfo::redelivered);
    // A reply is confirmed before the indexer writes its history document: wait for those too.
    await()
        .atMost(WAIT)
        .until(() -> ids.stream().allMatch(id -> history.find("amqp", id).isPresent()));
    for (String id : ids) {
      assertThat(replies.matching(correlationId(id))).as(id).isNotEmpty();
      MessageInfo doc = history.find("amqp", id).orElseThrow();
      assertThat(doc.disposition()).isEqualTo(Disposition.REPLIED);
    }
    await()
        .atMost(WAIT)
        .untilAsserted(() -> {
          QueueInformation info = admin.getQueueInfo(REQUESTS);
          assertThat(info.getMessageCount()).as("requests left in the queue").isZero();
        });
    assertThat(new QueueInbox(rabbit, DLQ).drain()).as("dead-letters").isEmpty();
  }

  private void awaitReplies(QueueInbox replies, List<String> ids, int count) {
    await()
        .atMost(WAIT)
        .until(() -> {
          replies.drain();
          return ids.stream().filter(id -> !replies.matching(correlationId(id)).isEmpty()).count()
              >= count;
        });
  }

  private String send(String body) {
    String id = UUID.randomUUID().toString();
    MessageProperties props = new MessageProperties();
    props.setMessageId(id);
    props.setReplyTo(REPLIES);
    rabbit.send("", REQUESTS, new Message(body.getBytes(StandardCharsets.US_ASCII), props));
    return id;
  }
}
