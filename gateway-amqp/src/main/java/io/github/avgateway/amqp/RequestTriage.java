package io.github.avgateway.amqp;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanRequest;
import java.time.Clock;
import org.springframework.amqp.core.Message;

/**
 * Decides, before any scan, what happens to a delivered request. In this order: a request past the
 * delivery limit is refused unscanned ({@code DELIVERY_LIMIT_EXCEEDED}: scanning a poison message
 * again would only repeat whatever went wrong); a request without {@code message_id} is refused as
 * {@code MALFORMED_REQUEST}; any other request is scanned, and its reply routed by the {@link
 * ReplyDestinationPolicy} (a request that cannot be answered is still scanned, so that its history
 * document says what it carried).
 */
public final class RequestTriage {

  private final AmqpRequestMapper mapper;
  private final ReplyDestinationPolicy policy;
  private final long deliveryLimit;
  private final Clock clock;

  /**
   * @param deliveryLimit deliveries after the first a request may have; {@code Long.MAX_VALUE} for
   *     none
   */
  public RequestTriage(
      AmqpRequestMapper mapper, ReplyDestinationPolicy policy, long deliveryLimit, Clock clock) {
    this.mapper = mapper;
    this.policy = policy;
    this.deliveryLimit = deliveryLimit;
    this.clock = clock;
  }

  public Triage triage(Message message) {
    String requestId = mapper.requestId(message);
    ScanRequest request = mapper.toScanRequest(message, requestId, clock.instant());
    long earlier = mapper.earlierDeliveries(message);
    if (earlier >= deliveryLimit) {
      return new Triage.Refuse(
          request,
          DeadLetterReason.DELIVERY_LIMIT_EXCEEDED,
          Reason.SCAN_FAILED,
          "delivered "
              + (earlier + 1)
              + " times without being answered (limit "
              + deliveryLimit
              + " redeliveries)");
    }
    if (mapper.messageId(message) == null) {
      return new Triage.Refuse(
          request,
          DeadLetterReason.MALFORMED_REQUEST,
          Reason.MALFORMED_REQUEST,
          "the request has no message_id");
    }
    return new Triage.Scan(request, policy.route(mapper.replyTo(message)));
  }
}
