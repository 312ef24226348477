package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.jms.config.JmsProperties;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueRequestor;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.activemq.artemis.api.jms.ActiveMQJMSClient;
import org.apache.activemq.artemis.api.jms.management.JMSManagementHelper;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Clean-pipe mode on the embedded Artemis with the real clamd (scripts/services.sh start clamd) and
 * the embedded Solr history: files put on a pipe's inbox come out on clean, quarantine or rejected
 * by their verdict, unchanged apart from the gateway's properties, with one history document each.
 * A second pipe whose clean queue is deleted before use shows the missing-outlet dead-letter.
 */
@SpringBootTest(classes = GatewayJmsApplication.class)
class JmsCleanPipeIT {

  private static final String INBOX = "uploads.inbox";
  private static final String CLEAN = "uploads.clean";
  private static final String QUARANTINE = "uploads.quarantine";
  private static final String REJECTED = "uploads.rejected";
  private static final String BROKEN_INBOX = "broken.inbox";
  private static final String MISSING = "broken.clean";
  private static final int MAX_SIZE = 256 * 1024;
  private static final long WAIT_MS = 30_000;

  @Autowired JmsProperties properties;
  @Autowired HistoryQueries history;

  private Connection connection;
  private Session session;

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) throws IOException {
    Path data = Files.createTempDirectory("avgw-jms-pipe");
    registry.add("avgateway.jms.url", () -> "tcp://127.0.0.1:" + TestEnv.freePort());
    registry.add("avgateway.jms.embedded.data-dir", () -> data.resolve("artemis").toString());
    registry.add("avgateway.solr.embedded.home", () -> data.resolve("solr").toString());
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("avgateway.clamd.max-size", () -> MAX_SIZE + "B");
    registry.add("avgateway.jms.consumers", () -> "2");
    registry.add("avgateway.jms.receive-timeout", () -> "200ms");
    List<String> first = List.of(INBOX, CLEAN, QUARANTINE, REJECTED);
    List<String> broken = List.of(BROKEN_INBOX, MISSING, "broken.quarantine", "broken.rejected");
    List<String> roles = List.of("inbox", "clean", "quarantine", "rejected");
    for (int i = 0; i < 4; i++) {
      String role = roles.get(i);
      String one = first.get(i);
      String two = broken.get(i);
      registry.add("avgateway.jms.pipes[0]." + role, () -> one);
      registry.add("avgateway.jms.pipes[1]." + role, () -> two);
    }
  }

  @BeforeEach
  void connect() throws Exception {
    connection = new ActiveMQConnectionFactory(properties.url()).createConnection();
    session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    connection.start();
  }

  @AfterEach
  void disconnect() throws Exception {
    connection.close();
  }

  @Test
  void cleanFileIsForwardedToCleanUnchangedWithTheGatewaysProperties() throws Exception {
    byte[] body = ContractFiles.clean(ThreadLocalRandom.current().nextLong());
    String id = "clean-" + UUID.randomUUID();
    BytesMessage file = bytes(body, id);
    file.setStringProperty("tenant", "acme");
    file.setStringProperty("contentType", "application/pdf");
    file.setIntProperty("attempt", 3);
    file.setJMSType("upload");
    send(INBOX, file, 7);

    Received out = receive(CLEAN, id);
    Message forwarded = out.message();
    assertThat(out.body()).isEqualTo(body);
    assertThat(out.property("tenant")).isEqualTo("acme");
    assertThat(out.property("contentType")).isEqualTo("application/pdf");
    assertThat(forwarded.getIntProperty("attempt")).isEqualTo(3);
    assertThat(forwarded.getJMSType()).isEqualTo("upload");
    assertThat(forwarded.getJMSPriority()).isEqualTo(7);
    assertThat(forwarded.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
    assertThat(out.property("avVerdict")).isEqualTo("CLEAN");
    assertThat(Instant.parse(out.property("avScannedAt"))).isBefore(Instant.now());
    assertThat(out.property("avSha256")).isEqualTo(ContractFiles.sha256(body));
    assertThat(out.property("avEngine")).startsWith("ClamAV");
    assertThat(out.property("avRequestId")).isEqualTo(file.getJMSMessageID());
    assertNowhereElse(id, QUARANTINE, REJECTED, properties.deadLetterQueue());

    MessageInfo doc = awaitHistory(file.getJMSMessageID());
    assertThat(doc.disposition()).isEqualTo(Disposition.FORWARDED_CLEAN);
    assertThat(doc.verdict()).isEqualTo(Verdict.CLEAN);
  }

  @Test
  void eicarGoesToQuarantineAndAForgedVerdictIsReplaced() throws Exception {
    String id = "eicar-" + UUID.randomUUID();
    BytesMessage file = bytes(ContractFiles.eicar(), id);
    file.setStringProperty("avVerdict", "CLEAN");
    file.setStringProperty("avSha256", "forged");
    send(INBOX, file, 4);

    Received out = receive(QUARANTINE, id);
    assertThat(out.property("avVerdict")).isEqualTo("INFECTED");
    assertThat(out.property("avSignature")).startsWith("Eicar-Test-Signature");
    assertThat(out.property("avSha256")).isEqualTo(ContractFiles.sha256(ContractFiles.eicar()));
    assertThat(out.body()).isEqualTo(ContractFiles.eicar());
    assertNowhereElse(id, CLEAN, REJECTED, properties.deadLetterQueue());
    assertThat(awaitHistory(file.getJMSMessageID()).disposition())
        .isEqualTo(Disposition.QUARANTINED);
  }

  @Test
  void fileOverTheLimitIsRejectedUnreadWithItsReason() throws Exception {
    byte[] body = ContractFiles.large(MAX_SIZE + 50_000, 7);
    String id = "large-" + UUID.randomUUID();
    BytesMessage file = bytes(body, id);
    send(INBOX, file, 4);

    Received out = receive(REJECTED, id);
    assertThat(out.property("avVerdict")).isEqualTo("UNSCANNABLE");
    assertThat(out.property("avReason")).isEqualTo("TOO_LARGE");
    assertThat(out.body()).isEqualTo(body);
    assertNowhereElse(id, CLEAN, QUARANTINE, properties.deadLetterQueue());
    MessageInfo doc = awaitHistory(file.getJMSMessageID());
    assertThat(doc.disposition()).isEqualTo(Disposition.REJECTED);
    assertThat(doc.reason()).isEqualTo(Reason.TOO_LARGE);
  }

  @Test
  void replyToIsAnsweredAsWellAndARefusedOneCostsOnlyTheReply() throws Exception {
    TemporaryQueue replies = session.createTemporaryQueue();
    String id = "reply-" + UUID.randomUUID();
    BytesMessage file = bytes(ContractFiles.clean(ThreadLocalRandom.current().nextLong()), id);
    file.setJMSReplyTo(replies);
    send(INBOX, file, 4);

    assertThat(receive(CLEAN, id).message().getJMSReplyTo()).isEqualTo(replies);
    try (MessageConsumer consumer = session.createConsumer(replies)) {
      Message reply = consumer.receive(WAIT_MS);
      assertThat(reply).isNotNull();
      assertThat(reply.getJMSCorrelationID()).isEqualTo(id);
      assertThat(reply.getStringProperty("avVerdict")).isEqualTo("CLEAN");
      assertThat(ScanResultJson.decode(body(reply)).requestId()).isEqualTo(file.getJMSMessageID());
    }

    String refused = "refused-reply-" + UUID.randomUUID();
    BytesMessage other =
        bytes(ContractFiles.clean(ThreadLocalRandom.current().nextLong()), refused);
    other.setJMSReplyTo(ActiveMQDestination.createQueue(CLEAN));
    send(INBOX, other, 4);
    receive(CLEAN, refused);
    // A reply would be in the same transaction as the forward: on CLEAN now, or nowhere.
    assertNowhereElse(refused, CLEAN, properties.deadLetterQueue());
    assertThat(awaitHistory(other.getJMSMessageID()).disposition())
        .isEqualTo(Disposition.FORWARDED_CLEAN);
  }

  @Test
  void missingOutletDeadLettersTheFileAndThePipeGoesOn() throws Exception {
    destroyQueue(MISSING);
    String id = "unroutable-" + UUID.randomUUID();
    BytesMessage file = bytes(ContractFiles.clean(ThreadLocalRandom.current().nextLong()), id);
    send(BROKEN_INBOX, file, 4);

    Received letter = receive(properties.deadLetterQueue(), id);
    assertThat(letter.property("avReason")).isEqualTo("FORWARD_UNROUTABLE");
    assertThat(letter.property("avReasonDetail")).contains(MISSING);
    assertThat(letter.property("avVerdict")).isEqualTo("CLEAN");
    MessageInfo doc = awaitHistory(file.getJMSMessageID());
    assertThat(doc.disposition()).isEqualTo(Disposition.DEAD_LETTERED);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.FORWARD_UNROUTABLE);

    String eicar = "unroutable-eicar-" + UUID.randomUUID();
    send(BROKEN_INBOX, bytes(ContractFiles.eicar(), eicar), 4);
    assertThat(receive("broken.quarantine", eicar).property("avVerdict")).isEqualTo("INFECTED");
  }

  @Test
  void textMessageOnAnInboxIsDeadLetteredAsMalformedAndNotForwarded() throws Exception {
    String id = "text-" + UUID.randomUUID();
    Message text = session.createTextMessage("not a file");
    text.setJMSCorrelationID(id);
    send(INBOX, text, 4);

    Received letter = receive(properties.deadLetterQueue(), id);
    assertThat(letter.property("avReason")).isEqualTo("MALFORMED_REQUEST");
    assertNowhereElse(id, CLEAN, QUARANTINE, REJECTED);
    assertThat(awaitHistory(text.getJMSMessageID()).deadLetterReason())
        .isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
  }

  private BytesMessage bytes(byte[] body, String correlationId) throws Exception {
    BytesMessage message = session.createBytesMessage();
    message.writeBytes(body);
    message.setJMSCorrelationID(correlationId);
    return message;
  }

  private void send(String queue, Message message, int priority) throws Exception {
    try (MessageProducer producer = session.createProducer(session.createQueue(queue))) {
      producer.send(message, DeliveryMode.PERSISTENT, priority, 0);
    }
  }

  /**
   * The message with {@code correlationId} on {@code queue}, taken off it, and its body (read while
   * the consumer is open, as a large message needs); fails after 30 s.
   */
  private Received receive(String queue, String correlationId) throws Exception {
    try (MessageConsumer consumer =
        session.createConsumer(session.createQueue(queue), selector(correlationId))) {
      Message message = consumer.receive(WAIT_MS);
      assertThat(message).as("a message %s on %s", correlationId, queue).isNotNull();
      return new Received(message, body(message));
    }
  }

  /** A message taken off a queue, and its body. */
  private record Received(Message message, byte[] body) {

    String property(String name) throws Exception {
      return message.getStringProperty(name);
    }
  }

  /**
   * Nothing with {@code correlationId} on any of {@code queues}. The forward, the dead-letter and
   * the consumption commit together, so once one of them is seen none can still come.
   */
  private void assertNowhereElse(String correlationId, String... queues) throws Exception {
    for (String queue : queues) {
      assertThat(count(queue, correlationId)).as("on " + queue).isZero();
    }
  }

  private int count(String queue, String correlationId) throws Exception {
    try (QueueBrowser browser =
        session.createBrowser(session.createQueue(queue), selector(correlationId))) {
      return Collections.list(browser.getEnumeration()).size();
    }
  }

  private static String selector(String correlationId) {
    return "JMSCorrelationID = '" + correlationId + "'";
  }

  private static byte[] body(Message message) throws Exception {
    BytesMessage bytes = (BytesMessage) message;
    byte[] body = new byte[(int) bytes.getBodyLength()];
    bytes.readBytes(body);
    return body;
  }

  private MessageInfo awaitHistory(String requestId) {
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> history.byRequestId("jms", requestId).isPresent());
    return history.byRequestId("jms", requestId).orElseThrow();
  }

  /** Deletes {@code queue} and its address through the broker's management address. */
  private void destroyQueue(String queue) throws Exception {
    try (var managed = new ActiveMQConnectionFactory(properties.url()).createQueueConnection()) {
      QueueSession managing = managed.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
      QueueRequestor requestor =
          new QueueRequestor(managing, ActiveMQJMSClient.createQueue("activemq.management"));
      managed.start();
      Message request = managing.createMessage();
      JMSManagementHelper.putOperationInvocation(
          request, ResourceNames.BROKER, "destroyQueue", queue, true, true);
      Message reply = requestor.request(request);
      assertThat(JMSManagementHelper.hasOperationSucceeded(reply))
          .as("destroyQueue " + queue + ": " + JMSManagementHelper.getResult(reply))
          .isTrue();
    }
  }
}
