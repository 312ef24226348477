package io.github.avgateway.amqp.triage;

import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.wire.WireNames;
import java.time.Instant;
import java.util.UUID;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;

/**
 * Reads the wire contract's AMQP properties (docs/architecture.md, "Wire contract") from a
 * delivered message: {@code message_id} is the request id, {@code correlation_id} the caller's
 * correlation id, header {@code avFilename} the file name, the broker-validated {@code user_id}
 * (else {@code app_id}) the client id, and the body the file's bytes, an empty body being an empty
 * file.
 */
public final class AmqpRequestMapper {

  /** The transport name written into every history document of this front-end. */
  public static final String TRANSPORT = "amqp";

  /** Prefix of the id given to a request that came without {@code message_id}. */
  public static final String GENERATED_ID_PREFIX = "no-message-id-";

  /** Quorum queues' count of earlier deliveries of this message. */
  public static final String DELIVERY_COUNT_HEADER = "x-delivery-count";

  /** The request's own id, or null when it has no (non-blank) {@code message_id}. */
  public String messageId(Message message) {
    String id = message.getMessageProperties().getMessageId();
    return id == null || id.isBlank() ? null : id;
  }

  /** The request's id: its {@code message_id}, else a generated one that is never reused. */
  public String requestId(Message message) {
    String id = messageId(message);
    return id != null ? id : GENERATED_ID_PREFIX + UUID.randomUUID();
  }

  /** The request as the pipeline sees it, under {@code requestId}. */
  public ScanRequest toScanRequest(Message message, String requestId, Instant receivedAt) {
    MessageProperties props = message.getMessageProperties();
    byte[] body = message.getBody() == null ? new byte[0] : message.getBody();
    return new ScanRequest(
        requestId,
        blankToNull(props.getCorrelationId()),
        TRANSPORT,
        header(props, WireNames.FILENAME),
        clientId(props),
        blankToNull(props.getContentType()),
        receivedAt,
        Boolean.TRUE.equals(props.getRedelivered()),
        ScanContent.of(body));
  }

  /** The {@code reply_to} property, or null. */
  public String replyTo(Message message) {
    return blankToNull(message.getMessageProperties().getReplyTo());
  }

  /** How often the broker delivered this message before (quorum queues only; else 0). */
  public long earlierDeliveries(Message message) {
    Object count = message.getMessageProperties().getHeaders().get(DELIVERY_COUNT_HEADER);
    if (count instanceof Number number) {
      return number.longValue();
    }
    if (count != null) {
      try {
        return Long.parseLong(count.toString().trim());
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return 0;
  }

  private static String clientId(MessageProperties props) {
    String user = blankToNull(props.getReceivedUserId());
    return user != null ? user : blankToNull(props.getAppId());
  }

  private static String header(MessageProperties props, String name) {
    Object value = props.getHeaders().get(name);
    return value == null ? null : blankToNull(value.toString());
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
