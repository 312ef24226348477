package io.github.avgateway.jms.triage;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.transport.DeadLetter;
import io.github.avgateway.core.transport.ReplyRoute;
import io.github.avgateway.core.transport.RequestTriage;
import io.github.avgateway.core.transport.TriageRules;
import jakarta.jms.Destination;
import java.util.Optional;

/**
 * The triage of the JMS front-end, free of I/O, on the rules both transports share ({@link
 * TriageRules}). Before the scan: a malformed request, one delivered more often than the limit, and
 * one whose JMSReplyTo the {@link JmsReplyDestinationPolicy} refuses are dead-lettered unscanned (a
 * caller that may not be answered costs no scan). After it (and after {@link TriageRules#held},
 * which retries a scanner failure while the intake gate is down): a request with neither JMSReplyTo
 * nor a default reply queue is dead-lettered (scanned, so that its history document says what it
 * carried); everything else is answered.
 */
public final class JmsRequestTriage implements RequestTriage<InboundRequest, Destination> {

  private final int maxDeliveryAttempts;
  private final JmsReplyDestinationPolicy replyPolicy;

  public JmsRequestTriage(int maxDeliveryAttempts, JmsReplyDestinationPolicy replyPolicy) {
    this.maxDeliveryAttempts = maxDeliveryAttempts;
    this.replyPolicy = replyPolicy;
  }

  @Override
  public Optional<DeadLetter> beforeScan(InboundRequest inbound) {
    Optional<DeadLetter> unscanned = beforePipeScan(inbound);
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
  public Optional<DeadLetter> beforePipeScan(InboundRequest inbound) {
    return switch (inbound) {
      case InboundRequest.Malformed malformed ->
          Optional.of(new DeadLetter(DeadLetterReason.MALFORMED_REQUEST, malformed.detail()));
      case InboundRequest.Readable readable ->
          TriageRules.overDeliveryLimit(readable.deliveryCount(), maxDeliveryAttempts)
              .map(detail -> new DeadLetter(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED, detail));
    };
  }

  /** Empty when replies may go to {@code replyTo}; else why not. */
  public Optional<DeadLetter> replyRefusal(Destination replyTo) {
    return replyPolicy
        .refusal(replyTo)
        .map(why -> new DeadLetter(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, why));
  }

  /**
   * Where a scanned request's reply goes: its JMSReplyTo (allowed {@link #beforeScan}), else the
   * session's default reply queue, else nowhere ({@code NO_REPLY_DESTINATION}).
   *
   * @param defaultReplyTo the configured default reply queue in the consumer's session, or null
   */
  @Override
  public ReplyRoute<Destination> replyRoute(InboundRequest inbound, Destination defaultReplyTo) {
    if (inbound.replyTo() != null) {
      return new ReplyRoute.To<>(inbound.replyTo());
    }
    if (defaultReplyTo == null) {
      return new ReplyRoute.Undeliverable<>(
          DeadLetterReason.NO_REPLY_DESTINATION,
          "the request has no JMSReplyTo and no default reply queue is configured");
    }
    return new ReplyRoute.To<>(defaultReplyTo);
  }

  /** The dead-letter of a clean-pipe message whose outlet {@code queue} the broker refused. */
  public static DeadLetter forwardUnroutable(String queue, String brokerMessage) {
    return new DeadLetter(
        DeadLetterReason.FORWARD_UNROUTABLE,
        "the broker refused the pipe's queue " + queue + ": " + brokerMessage);
  }

  /** The dead-letter of a request whose reply destination the broker refused. */
  public static DeadLetter unroutable(String brokerMessage) {
    return new DeadLetter(
        DeadLetterReason.REPLY_UNROUTABLE,
        "the broker refused the reply destination: " + brokerMessage);
  }
}
