package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.core.wire.WireNames;
import io.github.avgateway.jms.reply.JmsWire;
import io.github.avgateway.jms.support.StompClient;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.junit.jupiter.api.Test;

/**
 * Callers that do not speak Core, on the embedded broker's one acceptor: STOMP 1.2 as raw frames on
 * a socket, and AMQP 1.0 through Apache Qpid JMS. Each gets a clean file answered CLEAN, EICAR
 * answered INFECTED with its correlation id kept, and a text body dead-lettered as {@code
 * MALFORMED_REQUEST}; each request has exactly one history document. The broker is on its defaults:
 * STOMP has no temporary queues, so its caller subscribes to a named reply queue {@code
 * av.reply.*}, which the broker creates for it.
 */
class ProtocolClientsIT extends AbstractFakeGatewayIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Test
  void stompCleanFileIsAnsweredCleanOnThePlainNamedReplyQueue() throws Exception {
    String replyQueue = "av.reply.stomp-" + UUID.randomUUID();
    String correlationId = "stomp-clean-" + UUID.randomUUID();
    byte[] file = fresh();
    try (StompClient stomp = stomp()) {
      stomp.subscribe(replyQueue);
      stomp.send(
          "/queue/" + properties.requestQueue(),
          Map.of("reply-to", replyQueue, "correlation-id", correlationId, "avFilename", "a.txt"),
          file,
          true);

      StompClient.Frame reply = stomp.receive();

      assertThat(reply.command()).isEqualTo("MESSAGE");
      assertThat(reply.header("correlation-id")).isEqualTo(correlationId);
      assertThat(reply.header(WireNames.VERDICT)).isEqualTo("CLEAN");
      ScanResult body = ScanResultJson.decode(reply.body());
      assertThat(body.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(body.correlationId()).isEqualTo(correlationId);
      assertThat(body.sha256()).isEqualTo(ContractFiles.sha256(file));
      assertThat(assertOneDocument(body.requestId()).filename()).isEqualTo("a.txt");
    }
  }

  @Test
  void stompEicarIsAnsweredInfectedWithItsCorrelationIdOnThePrefixedReplyQueue() throws Exception {
    String replyQueue = "/queue/av.reply.stomp-" + UUID.randomUUID();
    String correlationId = "stomp-eicar-" + UUID.randomUUID();
    try (StompClient stomp = stomp()) {
      stomp.subscribe(replyQueue);
      stomp.send(
          properties.requestQueue(),
          Map.of("reply-to", replyQueue, "correlation-id", correlationId),
          ContractFiles.eicar(),
          true);

      StompClient.Frame reply = stomp.receive();

      assertThat(reply.header("correlation-id")).isEqualTo(correlationId);
      assertThat(reply.header(WireNames.VERDICT)).isEqualTo("INFECTED");
      assertThat(reply.header(WireNames.SIGNATURE)).isEqualTo(ContractFiles.EICAR_SIGNATURE);
      ScanResult body = ScanResultJson.decode(reply.body());
      assertThat(body.signatures()).containsExactly(ContractFiles.EICAR_SIGNATURE);
      assertThat(assertOneDocument(body.requestId()).verdict()).isEqualTo(Verdict.INFECTED);
    }
  }

  @Test
  void stompRequestWithoutCorrelationIdIsAnsweredWithTheRequestIdOfTheBody() throws Exception {
    String replyQueue = "av.reply.stomp-" + UUID.randomUUID();
    try (StompClient stomp = stomp()) {
      stomp.subscribe(replyQueue);
      stomp.send(properties.requestQueue(), Map.of("reply-to", replyQueue), fresh(), true);

      StompClient.Frame reply = stomp.receive();

      String requestId = ScanResultJson.decode(reply.body()).requestId();
      assertThat(requestId).startsWith("ID:artemis-");
      assertThat(reply.header("correlation-id")).isEqualTo(requestId);
      assertOneDocument(requestId);
    }
  }

  @Test
  void stompFrameWithoutContentLengthIsDeadLetteredAsMalformed() throws Exception {
    String correlationId = "stomp-text-" + UUID.randomUUID();
    int scansBefore = scanner.scans();
    try (StompClient stomp = stomp()) {
      stomp.send(
          properties.requestQueue(),
          Map.of("reply-to", "av.reply.stomp-text", "correlation-id", correlationId),
          "a file as text".getBytes(StandardCharsets.UTF_8),
          false);
    }

    DeadLetter letter = awaitMalformedDeadLetter(correlationId);

    assertThat(letter.originalType()).isEqualTo("TextMessage");
    assertThat(letter.body()).asString(StandardCharsets.UTF_8).isEqualTo("a file as text");
    assertThat(assertOneDocument(letter.requestId()).deadLetterReason())
        .isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
    assertThat(scanner.scans()).as("never scanned").isEqualTo(scansBefore);
  }

  @Test
  void amqpCleanAndEicarAreAnsweredWithTheirCorrelationIdsOnATemporaryQueue() throws Exception {
    try (Connection connection = amqp().createConnection()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      TemporaryQueue replies = session.createTemporaryQueue();
      MessageConsumer consumer = session.createConsumer(replies);
      connection.start();
      Map<String, byte[]> files = Map.of("CLEAN", fresh(), "INFECTED", ContractFiles.eicar());
      for (var entry : files.entrySet()) {
        String correlationId = "amqp-" + entry.getKey() + "-" + UUID.randomUUID();
        BytesMessage request = session.createBytesMessage();
        request.writeBytes(entry.getValue());
        request.setJMSCorrelationID(correlationId);
        request.setJMSReplyTo(replies);
        sendAmqp(session, request);

        Message reply = consumer.receive(TIMEOUT.toMillis());

        assertThat(reply).as("reply to %s", correlationId).isNotNull();
        assertThat(reply.getJMSCorrelationID()).isEqualTo(correlationId);
        assertThat(reply.getStringProperty(WireNames.VERDICT)).isEqualTo(entry.getKey());
        ScanResult body = ScanResultJson.decode(reply.getBody(byte[].class));
        assertThat(body.correlationId()).isEqualTo(correlationId);
        assertThat(assertOneDocument(body.requestId()).verdict().name()).isEqualTo(entry.getKey());
      }
    }
  }

  @Test
  void amqpReplyWithoutCorrelationIdCarriesTheSendersMessageIdEvenAfterARedelivery()
      throws Exception {
    scanner.throwNext(1);
    try (Connection connection = amqp().createConnection()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      TemporaryQueue replies = session.createTemporaryQueue();
      MessageConsumer consumer = session.createConsumer(replies);
      connection.start();
      BytesMessage request = session.createBytesMessage();
      request.writeBytes(fresh());
      request.setJMSReplyTo(replies);
      sendAmqp(session, request);

      Message reply = consumer.receive(TIMEOUT.toMillis());

      assertThat(reply).isNotNull();
      assertThat(reply.getStringProperty(WireNames.VERDICT)).isEqualTo("CLEAN");
      assertThat(reply.getJMSCorrelationID()).isEqualTo(request.getJMSMessageID());
      String requestId = ScanResultJson.decode(reply.getBody(byte[].class)).requestId();
      assertThat(requestId).isEqualTo(request.getJMSMessageID());
      assertThat(assertOneDocument(requestId).redelivered())
          .as("answered on its second delivery, under the id of the first")
          .isTrue();
    }
  }

  @Test
  void amqpTextMessageIsDeadLetteredAsMalformed() throws Exception {
    String correlationId = "amqp-text-" + UUID.randomUUID();
    try (Connection connection = amqp().createConnection()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      Message request = session.createTextMessage("a file as text");
      request.setJMSCorrelationID(correlationId);
      request.setJMSReplyTo(session.createTemporaryQueue());
      sendAmqp(session, request);

      DeadLetter letter = awaitMalformedDeadLetter(correlationId);

      assertThat(letter.originalType()).isEqualTo("TextMessage");
      assertThat(letter.body()).asString(StandardCharsets.UTF_8).isEqualTo("a file as text");
      assertThat(assertOneDocument(letter.requestId()).deadLetterReason())
          .isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
    }
  }

  private StompClient stomp() throws Exception {
    URI url = URI.create(properties.url());
    return new StompClient(url.getHost(), url.getPort(), TIMEOUT);
  }

  private JmsConnectionFactory amqp() {
    URI url = URI.create(properties.url());
    return new JmsConnectionFactory("amqp://" + url.getHost() + ":" + url.getPort());
  }

  private void sendAmqp(Session session, Message request) throws Exception {
    try (MessageProducer producer =
        session.createProducer(session.createQueue(properties.requestQueue()))) {
      producer.send(request);
    }
  }

  /** The request's one history document, once it is there. */
  private MessageInfo assertOneDocument(String requestId) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .until(() -> history.find("jms", requestId).isPresent());
    assertThat(history.calls().stream().filter(call -> requestId.equals(call.requestId())))
        .as("documents of %s", requestId)
        .hasSize(1);
    return history.find("jms", requestId).orElseThrow();
  }

  /** What a test reads of a dead-letter. */
  private record DeadLetter(String requestId, String originalType, byte[] body) {}

  /**
   * The dead-letter of {@code correlationId}, read as an operator would (Core JMS), after checking
   * that it says {@code MALFORMED_REQUEST} on the first delivery.
   */
  private DeadLetter awaitMalformedDeadLetter(String correlationId) throws Exception {
    try (Connection connection =
        new ActiveMQConnectionFactory(properties.url()).createConnection()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      connection.start();
      MessageConsumer consumer =
          session.createConsumer(
              session.createQueue(properties.deadLetterQueue()),
              "JMSCorrelationID = '" + correlationId + "'");
      Message letter = consumer.receive(TIMEOUT.toMillis());
      assertThat(letter).as("dead-letter of %s", correlationId).isNotNull();
      assertThat(letter.getStringProperty(WireNames.REASON))
          .isEqualTo(DeadLetterReason.MALFORMED_REQUEST.name());
      assertThat(letter.getIntProperty(JmsWire.DELIVERY_COUNT)).isEqualTo(1);
      return new DeadLetter(
          letter.getStringProperty(JmsWire.REQUEST_ID),
          letter.getStringProperty(JmsWire.ORIGINAL_TYPE),
          letter.getBody(byte[].class));
    }
  }
}
