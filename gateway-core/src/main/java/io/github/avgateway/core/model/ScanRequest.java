package io.github.avgateway.core.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One file to scan, as a front-end received it, in transport-neutral terms.
 *
 * @param requestId the request's id (AMQP {@code message_id}, JMS {@code JMSMessageID}); never
 *     blank
 * @param correlationId the caller's correlation id, or null
 * @param transport the front-end that received it, e.g. {@code amqp} or {@code jms}
 * @param filename the caller's file name ({@code avFilename}), or null
 * @param clientId the caller's identity, or null
 * @param contentType the message's content type, or null
 * @param receivedAt when the front-end received it
 * @param redelivered whether the broker marked it redelivered
 * @param content the file's bytes
 */
public record ScanRequest(
    String requestId,
    String correlationId,
    String transport,
    String filename,
    String clientId,
    String contentType,
    Instant receivedAt,
    boolean redelivered,
    ScanContent content) {

  public ScanRequest {
    if (requestId == null || requestId.isBlank()) {
      throw new IllegalArgumentException("requestId must not be blank");
    }
    if (transport == null || transport.isBlank()) {
      throw new IllegalArgumentException("transport must not be blank");
    }
    Objects.requireNonNull(receivedAt, "receivedAt");
    Objects.requireNonNull(content, "content");
  }

  /** The correlation id a reply carries: the request's own, else its request id. */
  public String replyCorrelationId() {
    return correlationId != null ? correlationId : requestId;
  }
}
