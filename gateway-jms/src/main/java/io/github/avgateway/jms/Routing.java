package io.github.avgateway.jms;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.port.Availability;
import jakarta.jms.Destination;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The routing decisions of the JMS front-end, free of I/O. Before the scan: a malformed request, or
 * one delivered more often than the limit, is dead-lettered. After it: a scanner failure while the
 * intake gate is down is retried (never answered as final), a request with neither JMSReplyTo nor a
 * default reply queue is dead-lettered, so is one whose JMSReplyTo the {@link ReplyQueuePolicy}
 * refuses; everything else is answered.
 */
final class Routing {

  private final int maxDeliveryAttempts;
  private final ReplyQueuePolicy replyPolicy;

  Routing(int maxDeliveryAttempts, ReplyQueuePolicy replyPolicy) {
    this.maxDeliveryAttempts = maxDeliveryAttempts;
    this.replyPolicy = replyPolicy;
  }

  /** A dead-letter decided without scanning, or empty when the request is to be scanned. */
  Optional<Route.DeadLetter> beforeScan(InboundRequest inbound) {
    return switch (inbound) {
      case InboundRequest.Malformed malformed ->
          Optional.of(new Route.DeadLetter(DeadLetterReason.MALFORMED_REQUEST, malformed.detail()));
      case InboundRequest.Readable readable when readable.deliveryCount() > maxDeliveryAttempts ->
          Optional.of(
              new Route.DeadLetter(
                  DeadLetterReason.DELIVERY_LIMIT_EXCEEDED,
                  "delivered %d times, over the limit of %d"
                      .formatted(readable.deliveryCount(), maxDeliveryAttempts)));
      case InboundRequest.Readable readable -> Optional.empty();
    };
  }

  /**
   * Where a scanned request goes.
   *
   * @param defaultReplyTo the configured default reply queue, or null
   * @param gate the intake gate's state, asked only when the scan failed
   */
  Route afterScan(
      InboundRequest inbound,
      ScanResult result,
      Destination defaultReplyTo,
      Supplier<Availability> gate) {
    if (result.reason() == Reason.SCAN_FAILED && gate.get() instanceof Availability.Down down) {
      return new Route.Retry(down.why());
    }
    if (inbound.replyTo() != null) {
      Optional<Route.DeadLetter> refused = replyPolicy.refusal(inbound.replyTo());
      return refused.isPresent() ? refused.get() : new Route.Reply(inbound.replyTo());
    }
    if (defaultReplyTo == null) {
      return new Route.DeadLetter(
          DeadLetterReason.NO_REPLY_DESTINATION,
          "the request has no JMSReplyTo and no default reply queue is configured");
    }
    return new Route.Reply(defaultReplyTo);
  }

  /** The dead-letter of a request whose reply destination the broker refused. */
  static Route.DeadLetter unroutable(String brokerMessage) {
    return new Route.DeadLetter(
        DeadLetterReason.REPLY_UNROUTABLE,
        "the broker refused the reply destination: " + brokerMessage);
  }
}
