package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.OriginalHeaders;
import io.github.avgateway.core.wire.WireNames;
import io.github.avgateway.jms.reply.JmsWire;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests carrying properties JMS cannot set (as STOMP, AMQP 1.0 and MQTT producers send them;
 * here set through Artemis' Core API, which allows any name and a bytes value) are dead-lettered by
 * the gateway on their first delivery, with the reason, those properties in {@code
 * avOriginalHeaders} and one history document; none loops into the broker's own DLQ.
 */
class ForeignPropertiesIT extends AbstractFakeGatewayIT {

  private static final String BROKER_DLQ = "DLQ";

  private Connection connection;
  private Session session;

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
  void textMessageWithStompStyleHeadersIsDeadLetteredOnceAsMalformed() throws Exception {
    long brokerDlqBefore = broker.messageCount(BROKER_DLQ);
    String correlationId = "stomp-text-" + UUID.randomUUID();
    Message request = withForeignProperties(session.createTextMessage("no content-length"));

    String requestId = send(request, correlationId);

    Message letter = awaitOnlyDeadLetter(correlationId);
    assertThat(letter.getStringProperty(WireNames.REASON))
        .isEqualTo(DeadLetterReason.MALFORMED_REQUEST.name());
    assertThat(letter.getStringProperty(JmsWire.ORIGINAL_TYPE)).isEqualTo("TextMessage");
    assertForeignPropertiesRecoverable(letter);
    assertOneDeliveryAndOneDocument(letter, requestId, DeadLetterReason.MALFORMED_REQUEST);
    assertThat(broker.messageCount(BROKER_DLQ)).isEqualTo(brokerDlqBefore);
  }

  @Test
  void bytesMessageWithARefusedReplyQueueIsDeadLetteredOnceUnscanned() throws Exception {
    long brokerDlqBefore = broker.messageCount(BROKER_DLQ);
    int scansBefore = scanner.scans();
    String correlationId = "stomp-bytes-" + UUID.randomUUID();
    var bytes = session.createBytesMessage();
    bytes.writeBytes(fresh());
    bytes.setStringProperty(WireNames.FILENAME, "foreign.bin");
    bytes.setJMSReplyTo(ActiveMQDestination.createQueue("orders"));
    Message request = withForeignProperties(bytes);

    String requestId = send(request, correlationId);

    Message letter = awaitOnlyDeadLetter(correlationId);
    assertThat(letter.getStringProperty(WireNames.REASON))
        .isEqualTo(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED.name());
    assertThat(letter.getStringProperty(WireNames.FILENAME)).isEqualTo("foreign.bin");
    assertThat(((Queue) letter.getJMSReplyTo()).getQueueName()).isEqualTo("orders");
    assertForeignPropertiesRecoverable(letter);
    MessageInfo doc =
        assertOneDeliveryAndOneDocument(
            letter, requestId, DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED);
    assertThat(doc.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(doc.reason()).isEqualTo(Reason.MALFORMED_REQUEST);
    assertThat(scanner.scans()).as("refused before the scan").isEqualTo(scansBefore);
    assertThat(broker.messageCount(BROKER_DLQ)).isEqualTo(brokerDlqBefore);
  }

  /** Names and a value type a JMS client may not set, as a STOMP frame's headers arrive. */
  private static Message withForeignProperties(Message message) {
    ClientMessage core = ((ActiveMQMessage) message).getCoreMessage();
    core.putStringProperty(SimpleString.of("destination-type"), SimpleString.of("ANYCAST"));
    core.putStringProperty(SimpleString.of("content-type"), SimpleString.of("text/plain"));
    core.putStringProperty(SimpleString.of("x.tenant id"), SimpleString.of("acme"));
    core.putBytesProperty(SimpleString.of("rawBytes"), new byte[] {1, 2, 3});
    core.putStringProperty(SimpleString.of("avReason"), SimpleString.of("spoofed by the caller"));
    return message;
  }

  private static void assertForeignPropertiesRecoverable(Message letter) throws Exception {
    Map<String, Object> original =
        OriginalHeaders.decode(letter.getStringProperty(WireNames.ORIGINAL_HEADERS));
    assertThat(original)
        .containsEntry("destination-type", "ANYCAST")
        .containsEntry("content-type", "text/plain")
        .containsEntry("x.tenant id", "acme")
        .containsEntry("rawBytes", Map.of("base64", "AQID", "length", 3))
        .containsEntry("avReason", "spoofed by the caller");
  }

  private MessageInfo assertOneDeliveryAndOneDocument(
      Message letter, String requestId, DeadLetterReason reason) throws Exception {
    assertThat(letter.getStringProperty(JmsWire.REQUEST_ID)).isEqualTo(requestId);
    assertThat(letter.getIntProperty(JmsWire.DELIVERY_COUNT)).isEqualTo(1);
    await().atMost(Duration.ofSeconds(10)).until(() -> history.find("jms", requestId).isPresent());
    MessageInfo doc = history.find("jms", requestId).orElseThrow();
    assertThat(doc.deadLetterReason()).isEqualTo(reason);
    assertThat(doc.redelivered()).isFalse();
    assertThat(history.calls().stream().filter(c -> requestId.equals(c.requestId())))
        .as("recorded once, never rolled back and recorded again")
        .hasSize(1);
    assertThat(broker.messageCount(properties.requestQueue())).isZero();
    return doc;
  }

  private String send(Message request, String correlationId) throws Exception {
    request.setJMSCorrelationID(correlationId);
    try (MessageProducer producer =
        session.createProducer(session.createQueue(properties.requestQueue()))) {
      producer.send(request);
    }
    return request.getJMSMessageID();
  }

  /** The dead-letter of {@code correlationId}, once no second one follows it. */
  private Message awaitOnlyDeadLetter(String correlationId) throws Exception {
    Queue deadLetters = session.createQueue(properties.deadLetterQueue());
    String selector = "JMSCorrelationID = '" + correlationId + "'";
    Message letter;
    try (MessageConsumer consumer = session.createConsumer(deadLetters, selector)) {
      letter = consumer.receive(Duration.ofSeconds(30).toMillis());
    }
    assertThat(letter).as("dead-letter of %s", correlationId).isNotNull();
    await()
        .pollDelay(Duration.ZERO)
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> count(deadLetters, selector) == 0);
    return letter;
  }

  private int count(Queue queue, String selector) throws Exception {
    try (QueueBrowser browser = session.createBrowser(queue, selector)) {
      return Collections.list(browser.getEnumeration()).size();
    }
  }
}
