package io.github.avgateway.jms.triage;

import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.time.Instant;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * Reads a JMS message as a request (docs/architecture.md, "Wire contract"): request id = the AMQP
 * 1.0 sender's message-id when it came over AMQP 1.0, else {@code JMSMessageID} (derived from the
 * broker's message id when the sender gave none, as over STOMP), correlation id = {@code
 * JMSCorrelationID}, reply destination = {@code JMSReplyTo} (a STOMP {@code reply-to} typed by
 * {@link ReplyAddress}), file name = property {@code avFilename}, client id = {@code JMSXUserID}
 * else property {@code avClientId}. Only a {@code BytesMessage} is readable; any other type is
 * malformed and its body is never touched (an {@code ObjectMessage} is never deserialized). So is a
 * message whose correlation id, file name or client id is longer than {@link #MAX_HEADER_LENGTH}
 * characters.
 */
public final class JmsRequestMapper {

  /** The transport name in history and document ids. */
  static final String TRANSPORT = "jms";

  /** Longest correlation id, file name or client id accepted, in characters. */
  static final int MAX_HEADER_LENGTH = 1024;

  private static final String DELIVERY_COUNT = "JMSXDeliveryCount";
  private static final String USER_ID = "JMSXUserID";

  /**
   * Where Artemis keeps an AMQP 1.0 message's message-id when it hands the message to a JMS
   * consumer, in {@code JMSMessageID} form ({@code ID:…}): the JMSMessageID it gives such a message
   * is made up anew at every delivery.
   */
  static final String AMQP_MESSAGE_ID = "NATIVE_MESSAGE_ID";

  /** Maps {@code message}, received at {@code receivedAt}. Never throws for a bad message. */
  public InboundRequest map(Message message, Instant receivedAt) {
    String requestId = requestId(message);
    try {
      Destination replyTo = ReplyAddress.typed(message.getJMSReplyTo());
      int deliveries = deliveryCount(message);
      ScanRequest headers = request(message, requestId, receivedAt, ScanContent.of(new byte[0]));
      String tooLong = tooLong(headers);
      if (tooLong != null) {
        return new InboundRequest.Malformed(withoutLong(headers), replyTo, deliveries, tooLong);
      }
      if (!(message instanceof BytesMessage bytes)) {
        String detail = typeName(message) + " is not a request: send the file as a BytesMessage";
        return new InboundRequest.Malformed(headers, replyTo, deliveries, detail);
      }
      ScanRequest request = request(message, requestId, receivedAt, new BytesMessageContent(bytes));
      return new InboundRequest.Readable(request, replyTo, deliveries);
    } catch (JMSException | RuntimeException e) {
      ScanRequest bare = bare(requestId, receivedAt);
      String detail = "unreadable headers or properties: " + e.getMessage();
      return new InboundRequest.Malformed(bare, null, 1, detail);
    }
  }

  /** The name of the message's JMS type, for dead-letters and details. */
  public static String typeName(Message message) {
    if (message instanceof BytesMessage) {
      return "BytesMessage";
    } else if (message instanceof TextMessage) {
      return "TextMessage";
    } else if (message instanceof ObjectMessage) {
      return "ObjectMessage";
    } else if (message instanceof MapMessage) {
      return "MapMessage";
    } else if (message instanceof StreamMessage) {
      return "StreamMessage";
    }
    return "Message";
  }

  private static ScanRequest request(
      Message message, String requestId, Instant receivedAt, ScanContent content)
      throws JMSException {
    return new ScanRequest(
        requestId,
        message.getJMSCorrelationID(),
        TRANSPORT,
        message.getStringProperty(WireNames.FILENAME),
        clientId(message),
        null,
        receivedAt,
        message.getJMSRedelivered(),
        content);
  }

  /**
   * What is wrong when the correlation id, file name or client id is longer than {@link
   * #MAX_HEADER_LENGTH}, else null. Such values are refused, never stored: the history store
   * rejects a document with an indexed value that long, which would fail every write it is in.
   */
  private static String tooLong(ScanRequest request) {
    for (String[] header :
        new String[][] {
          {"JMSCorrelationID", request.correlationId()},
          {WireNames.FILENAME, request.filename()},
          {"client id", request.clientId()}
        }) {
      if (header[1] != null && header[1].length() > MAX_HEADER_LENGTH) {
        return "%s is %d characters long, over the limit of %d"
            .formatted(header[0], header[1].length(), MAX_HEADER_LENGTH);
      }
    }
    return null;
  }

  /** {@code request} without the values {@link #tooLong} refuses. */
  private static ScanRequest withoutLong(ScanRequest request) {
    return new ScanRequest(
        request.requestId(),
        shortOrNull(request.correlationId()),
        TRANSPORT,
        shortOrNull(request.filename()),
        shortOrNull(request.clientId()),
        null,
        request.receivedAt(),
        request.redelivered(),
        request.content());
  }

  private static String shortOrNull(String value) {
    return value != null && value.length() <= MAX_HEADER_LENGTH ? value : null;
  }

  private static ScanRequest bare(String requestId, Instant receivedAt) {
    return new ScanRequest(
        requestId,
        null,
        TRANSPORT,
        null,
        null,
        null,
        receivedAt,
        false,
        ScanContent.of(new byte[0]));
  }

  private static String requestId(Message message) {
    try {
      // An AMQP 1.0 sender's own id: known to the sender (a reply without a correlation id of its
      // own carries it as correlation-id, the AMQP 1.0 request/reply idiom) and the same at every
      // redelivery, so a redelivered request keeps one history document.
      String amqp = message.getStringProperty(AMQP_MESSAGE_ID);
      if (amqp != null && !amqp.isBlank() && amqp.length() <= MAX_HEADER_LENGTH) {
        return amqp;
      }
      String id = message.getJMSMessageID();
      if (id != null && !id.isBlank()) {
        return id;
      }
    } catch (JMSException | RuntimeException e) {
      // fall through: an id is generated
    }
    // Artemis gives no JMSMessageID to messages sent over STOMP; its own message id is stable
    // across redeliveries, so the history document of a redelivered request is overwritten.
    if (message instanceof ActiveMQMessage artemis && artemis.getCoreMessage() != null) {
      return "ID:artemis-" + artemis.getCoreMessage().getMessageID();
    }
    return "ID:gw-" + UUID.randomUUID();
  }

  private static String clientId(Message message) throws JMSException {
    String user = message.getStringProperty(USER_ID);
    return user != null && !user.isBlank() ? user : message.getStringProperty(WireNames.CLIENT_ID);
  }

  private static int deliveryCount(Message message) throws JMSException {
    return message.propertyExists(DELIVERY_COUNT) ? message.getIntProperty(DELIVERY_COUNT) : 1;
  }
}
