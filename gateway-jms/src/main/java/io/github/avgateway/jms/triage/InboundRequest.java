package io.github.avgateway.jms.triage;

import io.github.avgateway.core.model.ScanRequest;
import jakarta.jms.Destination;

/**
 * A JMS request as the gateway understood it: readable (a {@code BytesMessage}) or malformed. Both
 * carry a {@link ScanRequest} so that either can be recorded in history.
 */
public sealed interface InboundRequest {

  /** The request in transport-neutral terms; a malformed one has empty content. */
  ScanRequest request();

  /** Where the caller wants the reply ({@code JMSReplyTo}), or null. */
  Destination replyTo();

  /** How often the broker has delivered it, this delivery included (1 the first time). */
  int deliveryCount();

  /** A {@code BytesMessage}: its body is the file. */
  record Readable(ScanRequest request, Destination replyTo, int deliveryCount)
      implements InboundRequest {}

  /**
   * Anything else: refused without reading its body.
   *
   * @param detail what is wrong, for the dead-letter and history
   */
  record Malformed(ScanRequest request, Destination replyTo, int deliveryCount, String detail)
      implements InboundRequest {}
}
