package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractDeadLetter;
import io.github.avgateway.core.contract.ContractReply;
import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.HistoryMessages;
import io.github.avgateway.jms.support.Inbox;
import io.github.avgateway.jms.support.JmsContractDriver;
import io.github.avgateway.jms.support.Tripwire;
import jakarta.jms.Destination;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.apache.activemq.artemis.jms.client.ActiveMQSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** What the JMS front-end does with requests the contract suite does not cover. */
class JmsBadInputAndHistoryStreamIT extends AbstractFakeGatewayIT {

  /** An unknown reply queue must stay unknown here, not be created on the reply. */
  @DynamicPropertySource
  static void noAutoCreatedReplyQueues(DynamicPropertyRegistry registry) {
    registry.add("avgateway.jms.embedded.auto-create-reply-queues", () -> "false");
  }

  private final Inbox inbox = new Inbox();
  private JmsContractDriver driver;

  @BeforeEach
  void openDriver() throws Exception {
    driver = driver(inbox);
  }

  @AfterEach
  void closeDriver() throws Exception {
    driver.close();
  }

  @Test
  void everyNonBytesTypeIsDeadLetteredAsMalformedAndNeverDeserialized() throws Exception {
    Session session = driver.session();
    int before = Tripwire.DESERIALIZED.get();
    int scansBefore = scanner.scans();
    List<Message> messages =
        List.of(
            session.createTextMessage("hello"),
            session.createObjectMessage(new Tripwire()),
            session.createMapMessage(),
            session.createStreamMessage(),
            session.createMessage());
    for (Message message : messages) {
      String correlationId = "malformed-" + UUID.randomUUID();
      String requestId = driver.send(message, correlationId, true);
      ContractDeadLetter letter = inbox.awaitDeadLetter(correlationId);
      assertThat(letter.reason()).isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
      assertThat(letter.requestId()).isEqualTo(requestId);
      MessageInfo doc = awaitHistory(requestId);
      assertThat(doc.reason()).isEqualTo(Reason.MALFORMED_REQUEST);
      assertThat(inbox.replies(correlationId)).isEmpty();
    }
    assertThat(Tripwire.DESERIALIZED.get()).isEqualTo(before);
    assertThat(scanner.scans()).as("malformed requests are never scanned").isEqualTo(scansBefore);
  }

  @Test
  void replyToAnUnknownQueueIsDeadLetteredAndTheConsumerGoesOn() throws Exception {
    String correlationId = "unroutable-" + UUID.randomUUID();
    sendReplyingTo(driver.session(), "av.reply.no-such-queue", correlationId);

    ContractDeadLetter letter = inbox.awaitDeadLetter(correlationId);
    assertThat(letter.reason()).isEqualTo(DeadLetterReason.REPLY_UNROUTABLE);
    assertThat(awaitHistory(letter.requestId()).deadLetterReason())
        .isEqualTo(DeadLetterReason.REPLY_UNROUTABLE);
    for (int i = 0; i < 4; i++) {
      String next = "after-" + UUID.randomUUID();
      driver.send(ContractRequest.of(fresh(), null, next));
      assertThat(inbox.awaitReply(next).verdict()).isEqualTo("CLEAN");
    }
  }

  /**
   * The embedded broker is asked whether a reply queue exists at every reply, never remembered: a
   * queue deleted after one reply is refused at the next, as the client's own checks refuse it.
   */
  @Test
  void aReplyQueueDeletedAfterOneReplyMakesTheNextUnroutable() throws Exception {
    Session session = driver.session();
    ClientSession core = ((ActiveMQSession) session).getCoreSession();
    String name = "av.reply.deleted-after-one-reply";
    core.createAddress(SimpleString.of(name), RoutingType.ANYCAST, false);
    core.createQueue(
        QueueConfiguration.of(name).setRoutingType(RoutingType.ANYCAST).setDurable(false));
    assertThat(broker.anycastQueueExists(name)).isTrue();

    String first = "first-" + UUID.randomUUID();
    sendReplyingTo(session, name, first);
    try (MessageConsumer replies = session.createConsumer(session.createQueue(name))) {
      Message reply = replies.receive(Duration.ofSeconds(30).toMillis());
      assertThat(reply).as("the reply to the queue that exists").isNotNull();
      assertThat(reply.getJMSCorrelationID()).isEqualTo(first);
    }
    core.deleteQueue(SimpleString.of(name));
    assertThat(broker.anycastQueueExists(name)).isFalse();

    String second = "second-" + UUID.randomUUID();
    sendReplyingTo(session, name, second);
    ContractDeadLetter letter = inbox.awaitDeadLetter(second);
    assertThat(letter.reason()).isEqualTo(DeadLetterReason.REPLY_UNROUTABLE);
    assertThat(broker.anycastQueueExists(name)).as("not created by the reply").isFalse();
  }

  /** Sends a fresh clean file as a request whose JMSReplyTo is the queue {@code replyQueue}. */
  private void sendReplyingTo(Session session, String replyQueue, String correlationId)
      throws Exception {
    var message = session.createBytesMessage();
    message.writeBytes(fresh());
    message.setJMSReplyTo(ActiveMQDestination.createQueue(replyQueue));
    message.setJMSCorrelationID(correlationId);
    try (MessageProducer producer =
        session.createProducer(session.createQueue(properties.requestQueue()))) {
      producer.send(message);
    }
  }

  @Test
  void replyToOutsideTheAllowListIsDeadLetteredAndNeverWritten() throws Exception {
    Session session = driver.session();
    for (String spoofed : List.of("orders", properties.requestQueue())) {
      String correlationId = "spoofed-" + UUID.randomUUID();
      sendReplyingTo(session, spoofed, correlationId);
      ContractDeadLetter letter = inbox.awaitDeadLetter(correlationId);
      assertThat(letter.reason()).isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
      assertThat(awaitHistory(letter.requestId()).deadLetterReason())
          .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> broker.messageCount(properties.requestQueue()) == 0);
  }

  @Test
  void aRefusingHistoryStoreDelaysNoReplyAndTheIndexerTriesAgain() {
    AtomicInteger refusals = new AtomicInteger();
    history.refuseWhen(
        info -> "refused-twice.txt".equals(info.filename()) && refusals.getAndIncrement() < 2);
    String correlationId = "refused-twice-" + UUID.randomUUID();
    String requestId = send(ContractRequest.of(fresh(), "refused-twice.txt", correlationId));

    assertThat(inbox.awaitReply(correlationId).verdict()).isEqualTo("CLEAN");
    MessageInfo doc = awaitHistory(requestId);
    assertThat(doc.redelivered()).as("the request was delivered once").isFalse();
    assertThat(refusals.get()).as("refused, refused again, accepted").isEqualTo(3);
    await().during(Duration.ofMillis(500)).until(() -> inbox.replies(correlationId).size() == 1);
  }

  @Test
  void unreadableHistoryMessagesAreDeadLetteredWithAReasonAndTheStreamGoesOn() throws Exception {
    Session session = driver.session();
    Destination historyQueue = session.createQueue(historyProperties.queue());
    try (MessageProducer producer = session.createProducer(historyQueue)) {
      var garbage = session.createBytesMessage();
      garbage.writeBytes("not a history message".getBytes(StandardCharsets.UTF_8));
      producer.send(garbage);
      var future = session.createBytesMessage();
      future.writeBytes("{\"schema\":99,\"documents\":[]}".getBytes(StandardCharsets.UTF_8));
      producer.send(future);
    }
    String correlationId = "after-garbage-" + UUID.randomUUID();
    String requestId = send(ContractRequest.of(fresh(), "after-garbage.txt", correlationId));
    awaitHistory(requestId);

    List<String> reasons = new ArrayList<>();
    try (MessageConsumer dlq =
        session.createConsumer(session.createQueue(historyProperties.deadLetterQueue()))) {
      for (Message letter = dlq.receive(5000); letter != null; letter = dlq.receive(500)) {
        reasons.add(letter.getStringProperty("avReason"));
        assertThat(letter.getStringProperty("avReasonDetail")).isNotBlank();
      }
    }
    assertThat(reasons).containsExactlyInAnyOrder("HISTORY_MALFORMED", "HISTORY_UNKNOWN_SCHEMA");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> broker.messageCount(historyProperties.queue()) == 0);
  }

  @Test
  void aSchemaOneJsonMessageAnOlderGatewayLeftOnTheQueueIsIndexed() throws Exception {
    String requestId = "ID:left-by-an-older-gateway-" + UUID.randomUUID();
    Instant at = Instant.parse("2026-11-25T08:00:00.123456Z");
    MessageInfo old =
        new MessageInfo(
            MessageInfo.idFor("jms", requestId),
            requestId,
            "c-old",
            "jms",
            null,
            "old.txt",
            null,
            12,
            "ab",
            Verdict.INFECTED,
            List.of("Eicar-Test-Signature"),
            null,
            "ClamAV 1.4.6",
            "27451",
            false,
            at,
            at.plusMillis(3),
            3,
            4,
            "gw-old",
            false,
            Disposition.REPLIED,
            null);
    Session session = driver.session();
    try (MessageProducer producer =
        session.createProducer(session.createQueue(historyProperties.queue()))) {
      var legacy = session.createBytesMessage();
      legacy.writeBytes(HistoryMessages.encodeJson(List.of(old)));
      legacy.setJMSType(HistoryMessages.JSON_CONTENT_TYPE);
      legacy.setIntProperty("avHistorySchema", HistoryMessages.JSON_SCHEMA);
      legacy.setIntProperty("avDocuments", 1);
      producer.send(legacy);
    }
    assertThat(awaitHistory(requestId)).isEqualTo(old);
  }

  @Test
  void requestWithoutMessageIdGetsOneThatIsStableAcrossRedeliveries() throws Exception {
    scanner.throwNext(1);
    Session session = driver.session();
    var message = session.createBytesMessage();
    message.writeBytes(fresh());
    message.setStringProperty("avFilename", "no-id.txt");
    String correlationId = "no-id-" + UUID.randomUUID();
    message.setJMSCorrelationID(correlationId);
    message.setJMSReplyTo(replyQueue());
    try (MessageProducer producer =
        session.createProducer(session.createQueue(properties.requestQueue()))) {
      producer.setDisableMessageID(true);
      producer.send(message);
    }

    ContractReply reply = inbox.awaitReply(correlationId);
    assertThat(reply.body().requestId()).startsWith("ID:artemis-");
    assertThat(awaitHistory(reply.body().requestId()).redelivered()).isTrue();
  }

  private String send(ContractRequest request) {
    try {
      return driver.send(request);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private jakarta.jms.Destination replyQueue() {
    return driver.replyQueue();
  }
}
