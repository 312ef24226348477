package io.github.avgateway.amqp;

import static io.github.avgateway.amqp.testing.QueueInbox.correlationId;
import static io.github.avgateway.amqp.testing.QueueInbox.messageId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.avgateway.amqp.client.AmqpScanClient;
import io.github.avgateway.amqp.testing.FakeScanner;
import io.github.avgateway.amqp.testing.InMemoryHistory;
import io.github.avgateway.amqp.testing.QueueInbox;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.amqp.testing.SwitchableGate;
import io.github.avgateway.amqp.testing.TestGateway;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.ScanResultJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The AMQP gateway against the real RabbitMQ (clamd and history are test doubles here; the contract
 * suite runs with the real ones): topology, replies, every bad-input dead-letter, the delivery
 * limit, and pausing intake.
 */
@SpringBootTest(classes = TestGateway.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AmqpGatewayIT {

  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "it.requests." + SUFFIX;
  private static final String DLX = "it.dlx." + SUFFIX;
  private static final String DLQ = "it.dead." + SUFFIX;
  private static final String REPLIES = "av.reply.it." + SUFFIX;
  private static final int DELIVERY_LIMIT = 3;
  private static final Duration WAIT = Duration.ofSeconds(30);

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    // clamd and history are test doubles here: keep the real ones' auto-configuration out
    registry.add("avgateway.clamd.enabled", () -> false);
    registry.add("avgateway.solr.enabled", () -> false);
    registry.add("spring.rabbitmq.port", RabbitIt::port);
    registry.add("avgateway.amqp.request-queue", () -> REQUESTS);
    registry.add("avgateway.amqp.dead-letter-exchange", () -> DLX);
    registry.add("avgateway.amqp.dead-letter-queue", () -> DLQ);
    registry.add("avgateway.amqp.delivery-limit", () -> DELIVERY_LIMIT);
    registry.add("avgateway.amqp.consumers", () -> 2);
    registry.add("avgateway.amqp.intake-check-interval", () -> "100ms");
  }

  @Autowired InMemoryHistory history;
  @Autowired FakeScanner scanner;
  @Autowired SwitchableGate gate;
  @Autowired AmqpAdmin admin;
  @Autowired IntakeWatcher watcher;
  @Autowired SimpleMessageListenerContainer container;

  private CachingConnectionFactory testConnection;
  private RabbitTemplate rabbit;
  private QueueInbox replies;
  private QueueInbox deadLetters;

  @BeforeAll
  void connect() {
    testConnection = RabbitIt.connectionFactory();
    rabbit = new RabbitTemplate(testConnection);
    admin.declareQueue(new Queue(REPLIES, false, false, false));
    replies = new QueueInbox(rabbit, REPLIES);
    deadLetters = new QueueInbox(rabbit, DLQ);
  }

  @AfterAll
  void cleanUp() {
    admin.deleteQueue(REPLIES);
    admin.deleteQueue(REQUESTS);
    admin.deleteQueue(DLQ);
    admin.deleteExchange(DLX);
    testConnection.destroy();
  }

  @Test
  void topologyIsDeclaredAsAQuorumQueueWithDeliveryLimitAndDeadLetterExchange() throws Exception {
    Map<String, Object> expected = new HashMap<>();
    expected.put("x-queue-type", "quorum");
    expected.put("x-delivery-limit", DELIVERY_LIMIT);
    expected.put("x-dead-letter-exchange", DLX);
    expected.put("x-dead-letter-routing-key", REQUESTS);
    try (Connection connection = testConnection.getRabbitConnectionFactory().newConnection()) {
      // Re-declaring with the same arguments succeeds only if the queue has exactly these.
      try (Channel channel = connection.createChannel()) {
        channel.queueDeclare(REQUESTS, true, false, false, expected);
        channel.queueDeclarePassive(DLQ);
        channel.exchangeDeclarePassive(DLX);
      }
      Channel classic = connection.createChannel();
      Map<String, Object> wrong = new HashMap<>(expected);
      wrong.put("x-queue-type", "classic");
      wrong.remove("x-delivery-limit");
      assertThatThrownBy(() -> classic.queueDeclare(REQUESTS, true, false, false, wrong))
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void theClientGetsVerdictsOverDirectReplyTo() throws Exception {
    try (AmqpScanClient client =
        new AmqpScanClient(testConnection, REQUESTS, Duration.ofSeconds(30))) {
      ScanResult clean = client.scan(bytes("hello"), "hello.txt").get(30, TimeUnit.SECONDS);
      ScanResult infected =
          client.scan(bytes("x " + FakeScanner.MARKER), "bad.bin").get(30, TimeUnit.SECONDS);

      assertThat(clean.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(infected.verdict()).isEqualTo(Verdict.INFECTED);
      assertThat(infected.signatures()).containsExactly(FakeScanner.SIGNATURE);
      MessageInfo doc = awaitDocument(clean.requestId());
      assertThat(doc.filename()).isEqualTo("hello.txt");
      assertThat(doc.disposition()).isEqualTo(Disposition.REPLIED);
    }
  }

  @Test
  void aReplyOnANamedQueueCarriesCorrelationIdHeadersAndJson() {
    String id = send(bytes(FakeScanner.MARKER), REPLIES, "corr-" + SUFFIX);

    Message reply = replies.await(correlationId("corr-" + SUFFIX), WAIT);
    MessageProperties props = reply.getMessageProperties();
    assertThat(props.getContentType()).isEqualTo("application/json");
    assertThat(props.getHeaders())
        .containsEntry("avVerdict", "INFECTED")
        .containsEntry("avSignature", FakeScanner.SIGNATURE);
    ScanResult result = ScanResultJson.decode(reply.getBody());
    assertThat(result.requestId()).isEqualTo(id);
    assertThat(result.correlationId()).isEqualTo("corr-" + SUFFIX);
  }

  @Test
  void withoutCorrelationIdTheReplyIsCorrelatedByMessageId() {
    String id = send(bytes("plain"), REPLIES, null);
    Message reply = replies.await(correlationId(id), WAIT);
    assertThat(reply.getMessageProperties().getHeaders()).containsEntry("avVerdict", "CLEAN");
  }

  @Test
  void noMessageIdIsDeadLetteredAsMalformedAndRecorded() {
    String corr = "no-id-" + UUID.randomUUID();
    MessageProperties props = new MessageProperties();
    props.setCorrelationId(corr);
    props.setReplyTo(REPLIES);
    rabbit.send("", REQUESTS, new Message(bytes("x"), props));

    Message dead = deadLetters.await(correlationId(corr), WAIT);
    assertDeadLetter(dead, DeadLetterReason.MALFORMED_REQUEST);
    String recordedId = dead.getMessageProperties().getMessageId();
    assertThat(recordedId).startsWith(AmqpRequestMapper.GENERATED_ID_PREFIX);
    assertThat(awaitDocument(recordedId).verdict()).isEqualTo(Verdict.ERROR);
    assertThat(replies.matching(correlationId(corr))).isEmpty();
  }

  @Test
  void noReplyToIsDeadLetteredAndRecorded() {
    String id = send(bytes("orphan"), null, null);
    assertDeadLetter(deadLetters.await(messageId(id), WAIT), DeadLetterReason.NO_REPLY_DESTINATION);
    assertThat(awaitDocument(id).verdict()).isEqualTo(Verdict.CLEAN);
  }

  @Test
  void replyToOutsideTheAllowListIsDeadLettered() {
    String id = send(bytes("x"), "not-allowed." + SUFFIX, null);
    assertDeadLetter(
        deadLetters.await(messageId(id), WAIT), DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    awaitDocument(id);
  }

  @Test
  void anUnroutableReplyIsDeadLetteredAndTheConsumerKeepsServing() {
    String lost = send(bytes("x"), "av.reply.no-such-queue." + SUFFIX, null);
    assertDeadLetter(deadLetters.await(messageId(lost), WAIT), DeadLetterReason.REPLY_UNROUTABLE);
    assertThat(awaitDocument(lost).deadLetterReason()).isEqualTo(DeadLetterReason.REPLY_UNROUTABLE);

    for (int i = 0; i < 5; i++) {
      String ok = send(bytes("after " + i), REPLIES, null);
      replies.await(correlationId(ok), WAIT);
    }
    assertThat(admin.getQueueInfo(REQUESTS).getConsumerCount()).isEqualTo(2);
  }

  @Test
  void aRequestThatKeepsFailingIsDeadLetteredAtTheDeliveryLimit() {
    String id = "poison-" + UUID.randomUUID();
    history.refuseWhen(
        info -> info.requestId().equals(id) && info.disposition() == Disposition.REPLIED);
    try {
      send(id, bytes("poison"), REPLIES, null);
      Message dead = deadLetters.await(messageId(id), WAIT);
      assertDeadLetter(dead, DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
      MessageInfo doc = awaitDocument(id);
      assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
      assertThat(doc.redelivered()).isTrue();
      long attempts = history.calls().stream().filter(info -> info.requestId().equals(id)).count();
      assertThat(attempts).isEqualTo(DELIVERY_LIMIT + 1);
    } finally {
      history.refuseWhen(info -> false);
    }
  }

  @Test
  void whileTheGateIsDownRequestsWaitInTheQueueAndAreAnsweredAfterwards() {
    gate.down("clamd unreachable (test)");
    try {
      await().atMost(WAIT).until(() -> watcher.paused() && !container.isRunning());
      String id = send(bytes("waiting"), REPLIES, null);
      await().atMost(WAIT).until(() -> admin.getQueueInfo(REQUESTS).getMessageCount() == 1);
      assertThat(admin.getQueueInfo(REQUESTS).getConsumerCount()).isZero();
      gate.up();
      replies.await(correlationId(id), WAIT);
    } finally {
      gate.up();
    }
    await().atMost(WAIT).until(() -> !watcher.paused() && container.isRunning());
  }

  private String send(byte[] body, String replyTo, String correlation) {
    return send(UUID.randomUUID().toString(), body, replyTo, correlation);
  }

  private String send(String id, byte[] body, String replyTo, String correlation) {
    MessageProperties props = new MessageProperties();
    props.setMessageId(id);
    props.setCorrelationId(correlation);
    props.setReplyTo(replyTo);
    rabbit.send("", REQUESTS, new Message(body, props));
    return id;
  }

  private MessageInfo awaitDocument(String requestId) {
    await().atMost(WAIT).until(() -> history.find("amqp", requestId).isPresent());
    return history.find("amqp", requestId).orElseThrow();
  }

  private static void assertDeadLetter(Message dead, DeadLetterReason reason) {
    assertThat(dead.getMessageProperties().getHeaders())
        .containsEntry("avReason", reason.name())
        .containsKey("avReasonDetail");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
