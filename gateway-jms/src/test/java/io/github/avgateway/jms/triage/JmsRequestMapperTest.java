package io.github.avgateway.jms.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.github.avgateway.core.model.ScanRequest;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.junit.jupiter.api.Test;

class JmsRequestMapperTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  private final JmsRequestMapper mapper = new JmsRequestMapper();

  private static BytesMessage bytesMessage(byte[] body) throws JMSException {
    BytesMessage message = mock(BytesMessage.class);
    when(message.getBodyLength()).thenReturn((long) body.length);
    when(message.readBytes(any(byte[].class)))
        .thenAnswer(call -> {
          byte[] target = call.getArgument(0);
          System.arraycopy(body, 0, target, 0, body.length);
          return body.length;
        })
        .thenReturn(-1);
    return message;
  }

  @Test
  void bytesMessageIsReadableWithTheContractHeaders() throws Exception {
    Destination replyTo = mock(Destination.class);
    BytesMessage message = bytesMessage("hello".getBytes(StandardCharsets.UTF_8));
    when(message.getJMSMessageID()).thenReturn("ID:42");
    when(message.getJMSCorrelationID()).thenReturn("corr-1");
    when(message.getJMSReplyTo()).thenReturn(replyTo);
    when(message.getJMSRedelivered()).thenReturn(true);
    when(message.getStringProperty("avFilename")).thenReturn("a.txt");
    when(message.getStringProperty("avClientId")).thenReturn("billing");
    when(message.propertyExists("JMSXDeliveryCount")).thenReturn(true);
    when(message.getIntProperty("JMSXDeliveryCount")).thenReturn(2);

    InboundRequest inbound = mapper.map(message, NOW);

    assertThat(inbound).isInstanceOf(InboundRequest.Readable.class);
    assertThat(inbound.replyTo()).isSameAs(replyTo);
    assertThat(inbound.deliveryCount()).isEqualTo(2);
    ScanRequest request = inbound.request();
    assertThat(request.requestId()).isEqualTo("ID:42");
    assertThat(request.correlationId()).isEqualTo("corr-1");
    assertThat(request.transport()).isEqualTo("jms");
    assertThat(request.filename()).isEqualTo("a.txt");
    assertThat(request.clientId()).isEqualTo("billing");
    assertThat(request.redelivered()).isTrue();
    assertThat(request.receivedAt()).isEqualTo(NOW);
    assertThat(request.content().size()).isEqualTo(5);
    try (InputStream in = request.content().open()) {
      assertThat(in.readAllBytes()).asString(StandardCharsets.UTF_8).isEqualTo("hello");
    }
  }

  @Test
  void overLongHeaderMakesTheRequestMalformedAndIsNotKept() throws Exception {
    BytesMessage message = bytesMessage("hello".getBytes(StandardCharsets.UTF_8));
    when(message.getJMSMessageID()).thenReturn("ID:7");
    when(message.getJMSCorrelationID()).thenReturn("corr-7");
    when(message.getStringProperty("avFilename")).thenReturn("a.txt");
    when(message.getStringProperty("avClientId")).thenReturn("c".repeat(1025));

    InboundRequest inbound = mapper.map(message, NOW);

    assertThat(inbound)
        .isInstanceOfSatisfying(
            InboundRequest.Malformed.class,
            malformed -> assertThat(malformed.detail()).contains("1025").contains("1024"));
    assertThat(inbound.request().clientId()).isNull();
    assertThat(inbound.request().correlationId()).isEqualTo("corr-7");
    assertThat(inbound.request().filename()).isEqualTo("a.txt");
    verify(message, never()).readBytes(any(byte[].class));
  }

  @Test
  void headersUpToTheLimitAreKept() throws Exception {
    BytesMessage message = bytesMessage(new byte[0]);
    when(message.getJMSMessageID()).thenReturn("ID:8");
    when(message.getStringProperty("avFilename")).thenReturn("f".repeat(1024));

    assertThat(mapper.map(message, NOW)).isInstanceOf(InboundRequest.Readable.class);
  }

  @Test
  void validatedUserWinsOverTheClientIdProperty() throws Exception {
    BytesMessage message = bytesMessage(new byte[0]);
    when(message.getJMSMessageID()).thenReturn("ID:1");
    when(message.getStringProperty("JMSXUserID")).thenReturn("alice");
    when(message.getStringProperty("avClientId")).thenReturn("billing");

    assertThat(mapper.map(message, NOW).request().clientId()).isEqualTo("alice");
  }

  @Test
  void bodyIsNotReadUntilTheContentIsOpened() throws Exception {
    BytesMessage message = bytesMessage(new byte[10]);
    when(message.getJMSMessageID()).thenReturn("ID:1");

    InboundRequest inbound = mapper.map(message, NOW);

    assertThat(inbound.request().content().size()).isEqualTo(10);
    verify(message, never()).readBytes(any(byte[].class));
  }

  @Test
  void textMessageIsMalformedAndItsBodyIsNotRead() throws Exception {
    TextMessage message = mock(TextMessage.class);
    when(message.getJMSMessageID()).thenReturn("ID:7");
    when(message.getJMSCorrelationID()).thenReturn("corr-7");

    InboundRequest inbound = mapper.map(message, NOW);

    assertThat(inbound).isInstanceOf(InboundRequest.Malformed.class);
    assertThat(((InboundRequest.Malformed) inbound).detail()).startsWith("TextMessage");
    assertThat(inbound.request().requestId()).isEqualTo("ID:7");
    assertThat(inbound.request().correlationId()).isEqualTo("corr-7");
    assertThat(inbound.request().content().size()).isZero();
    verify(message, never()).getText();
  }

  @Test
  void objectMessageIsMalformedAndNeverDeserialized() throws Exception {
    ObjectMessage message = mock(ObjectMessage.class);
    when(message.getJMSMessageID()).thenReturn("ID:8");

    InboundRequest inbound = mapper.map(message, NOW);

    assertThat(inbound).isInstanceOf(InboundRequest.Malformed.class);
    assertThat(((InboundRequest.Malformed) inbound).detail()).startsWith("ObjectMessage");
    verify(message, never()).getObject();
    verify(message, never()).getBody(any());
  }

  @Test
  void missingMessageIdIsGenerated() throws Exception {
    BytesMessage message = bytesMessage(new byte[0]);

    String id = mapper.map(message, NOW).request().requestId();

    assertThat(id).startsWith("ID:gw-");
  }

  @Test
  void unreadableHeadersMakeTheRequestMalformed() throws Exception {
    Message message = bytesMessage(new byte[0]);
    when(message.getJMSMessageID()).thenReturn("ID:9");
    when(message.getStringProperty("avFilename")).thenThrow(new JMSException("broken"));

    InboundRequest inbound = mapper.map(message, NOW);

    assertThat(inbound).isInstanceOf(InboundRequest.Malformed.class);
    assertThat(inbound.request().requestId()).isEqualTo("ID:9");
    assertThat(((InboundRequest.Malformed) inbound).detail()).contains("broken");
  }

  @Test
  void amqpSendersMessageIdIsTheRequestId() throws Exception {
    BytesMessage message = bytesMessage(new byte[0]);
    when(message.getJMSMessageID()).thenReturn("ID:made-up-at-this-delivery");
    when(message.getStringProperty("NATIVE_MESSAGE_ID")).thenReturn("ID:sender-1:1:1:1-1");

    assertThat(mapper.map(message, NOW).request().requestId()).isEqualTo("ID:sender-1:1:1:1-1");
  }

  @Test
  void overLongAmqpMessageIdIsNotUsed() throws Exception {
    BytesMessage message = bytesMessage(new byte[0]);
    when(message.getJMSMessageID()).thenReturn("ID:core-2");
    when(message.getStringProperty("NATIVE_MESSAGE_ID")).thenReturn("ID:" + "x".repeat(1024));

    assertThat(mapper.map(message, NOW).request().requestId()).isEqualTo("ID:core-2");
  }

  @Test
  void stompReplyToIsAQueueByItsPlainOrPrefixedName() throws Exception {
    for (String header : new String[] {"av.reply.billing", "/queue/av.reply.billing"}) {
      BytesMessage message = bytesMessage(new byte[0]);
      // Artemis' STOMP support stores the header as is; JMS reads it as an untyped destination.
      when(message.getJMSReplyTo()).thenReturn(ActiveMQDestination.fromPrefixedName(header));

      assertThat(mapper.map(message, NOW).replyTo())
          .isInstanceOfSatisfying(Queue.class, queue -> assertQueueName(queue, "av.reply.billing"));
    }
  }

  @Test
  void stompReplyToTopicStaysATopic() throws Exception {
    BytesMessage message = bytesMessage(new byte[0]);
    when(message.getJMSReplyTo())
        .thenReturn(ActiveMQDestination.fromPrefixedName("/topic/av.reply.billing"));

    assertThat(mapper.map(message, NOW).replyTo()).isInstanceOf(Topic.class);
  }

  @Test
  void typedReplyToIsKeptAsItIs() throws Exception {
    Queue queue = ActiveMQDestination.createQueue("av.reply.billing");
    BytesMessage message = bytesMessage(new byte[0]);
    when(message.getJMSReplyTo()).thenReturn(queue);

    assertThat(mapper.map(message, NOW).replyTo()).isSameAs(queue);
  }

  private static void assertQueueName(Queue queue, String name) {
    try {
      assertThat(queue.getQueueName()).isEqualTo(name);
    } catch (JMSException e) {
      throw new AssertionError(e);
    }
  }
}
