package io.github.avgateway.amqp;

import io.github.avgateway.core.logging.ReplyRefusalLog;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanRequest;
import java.time.Clock;
import org.springframework.amqp.core.Message;

/**
 * Decides, before any scan, what happens to a delivered request. In this order: a request past the
 * delivery limit is refused unscanned ({@code DELIVERY_LIMIT_EXCEEDED}: scanning a poison message
 * again would only repeat whatever went wrong); a request without {@code message_id} is refused as
 * {@code MALFORMED_REQUEST}; a request whose {@code reply_to} the {@link ReplyDestinationPolicy}
 * refuses is refused unscanned as {@code REPLY_DESTINATION_NOT_ALLOWED} (a caller that may not be
 * answered costs no scan), recorded as ERROR {@code MALFORMED_REQUEST} and logged at WARN once per
 * client and {@code reply_to} per minute; any other request is scanned, and its reply routed by the
 * policy (a request without {@code reply_to} and no default reply queue is still scanned, so that
 * its history document says what it carried).
 */
public final class RequestTriage {

  private final AmqpRequestMapper mapper;
  private final ReplyDestinationPolicy policy;
  private final long deliveryLimit;
  private final Clock clock;
  private final ReplyRefusalLog refusals;

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
    this.refusals = new ReplyRefusalLog(clock);
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
    String replyTo = mapper.replyTo(message);
    ReplyRoute route = policy.route(replyTo);
    if (route instanceof ReplyRoute.Undeliverable refused
        && refused.reason() == DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED) {
      refusals.refused(request, replyTo, refused.detail());
      return new Triage.Refuse(
          request, refused.reason(), Reason.MALFORMED_REQUEST, refused.detail());
    }
    return new Triage.Scan(request, route);
  }
}
