package io.github.avgateway.jms.triage;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.transport.TriageRules;
import jakarta.jms.Destination;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The triage of the JMS front-end, free of I/O, on the rules both transports share ({@link
 * TriageRules}). Before the scan: a malformed request, one delivered more often than the limit, and
 * one whose JMSReplyTo the {@link JmsReplyDestinationPolicy} refuses are dead-lettered unscanned (a
 * caller that may not be answered costs no scan). After it: a scanner failure while the intake gate
 * is down is retried (never answered as final), a request with neither JMSReplyTo nor a default
 * reply queue is dead-lettered (scanned, so that its history document says what it carried);
 * everything else is answered.
 */
public final class RequestTriage {

  private final int maxDeliveryAttempts;
  private final JmsReplyDestinationPolicy replyPolicy;

  public RequestTriage(int maxDeliveryAttempts, JmsReplyDestinationPolicy replyPolicy) {
    this.maxDeliveryAttempts = maxDeliveryAttempts;
    this.replyPolicy = replyPolicy;
  }

  /** A dead-letter decided without scanning, or empty when the request is to be scanned. */
  public Optional<Triage.DeadLetter> beforeScan(InboundRequest inbound) {
    Optional<Triage.DeadLetter> unscanned = beforePipeScan(inbound);
    if (unscanned.isPresent() || inbound.replyTo() == null) {
      return unscanned;
    }
    return replyRefusal(inbound.replyTo());
  }

  /**
   * The dead-letter of a clean-pipe message decided without scanning (malformed, or over the
   * delivery limit), or empty when it is to be scanned. Its JMSReplyTo is not asked here: a refused
   * one costs the message its reply, never its forward (see {@link #replyRefusal}).
   */
  public Optional<Triage.DeadLetter> beforePipeScan(InboundRequest inbound) {
    return switch (inbound) {
      case InboundRequest.Malformed malformed ->
          Optional.of(
              new Triage.DeadLetter(DeadLetterReason.MALFORMED_REQUEST, malformed.detail()));
      case InboundRequest.Readable readable ->
          TriageRules.overDeliveryLimit(readable.deliveryCount(), maxDeliveryAttempts)
              .map(detail ->
                  new Triage.DeadLetter(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED, detail));
    };
  }

  /** Empty when replies may go to {@code replyTo}; else why not. */
  public Optional<Triage.DeadLetter> replyRefusal(Destination replyTo) {
    return replyPolicy
        .refusal(replyTo)
        .map(why -> new Triage.DeadLetter(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, why));
  }

  /**
   * Where a scanned request goes (its JMSReplyTo, if any, was allowed {@link #beforeScan}).
   *
   * @param defaultReplyTo the configured default reply queue, or null
   * @param gate the intake gate's state, asked only when the scan failed
   */
  public Triage afterScan(
      InboundRequest inbound,
      ScanResult result,
      Destination defaultReplyTo,
      Supplier<Availability> gate) {
    Optional<Triage.Retry> held = held(result, gate);
    if (held.isPresent()) {
      return held.get();
    }
    if (inbound.replyTo() != null) {
      return new Triage.Reply(inbound.replyTo());
    }
    if (defaultReplyTo == null) {
      return new Triage.DeadLetter(
          DeadLetterReason.NO_REPLY_DESTINATION,
          "the request has no JMSReplyTo and no default reply queue is configured");
    }
    return new Triage.Reply(defaultReplyTo);
  }

  /**
   * A retry when the scan failed while the intake gate is down (clamd unreachable), or closed
   * during the scan ({@link io.github.avgateway.core.port.IntakeGate#intakeSince}): never answered
   * nor forwarded as final, the message is scanned again once the gate is up.
   *
   * @param gate the intake gate's state since before the scan, asked only when the scan failed
   */
  public static Optional<Triage.Retry> held(ScanResult result, Supplier<Availability> gate) {
    return TriageRules.held(result, gate).map(Triage.Retry::new);
  }

  /** The dead-letter of a clean-pipe message whose outlet {@code queue} the broker refused. */
  public static Triage.DeadLetter forwardUnroutable(String queue, String brokerMessage) {
    return new Triage.DeadLetter(
        DeadLetterReason.FORWARD_UNROUTABLE,
        "the broker refused the pipe's queue " + queue + ": " + brokerMessage);
  }

  /** The dead-letter of a request whose reply destination the broker refused. */
  public static Triage.DeadLetter unroutable(String brokerMessage) {
    return new Triage.DeadLetter(
        DeadLetterReason.REPLY_UNROUTABLE,
        "the broker refused the reply destination: " + brokerMessage);
  }
}
