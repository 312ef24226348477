package io.github.avgateway.amqp.triage;

import io.github.avgateway.core.logging.RateLimitedWarning;
import io.github.avgateway.core.logging.ReplyRefusalLog;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.transport.DeadLetter;
import io.github.avgateway.core.transport.ReplyRoute;
import io.github.avgateway.core.transport.RequestTriage;
import io.github.avgateway.core.transport.TriageRules;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;

/**
 * Decides, before any scan, what happens to a delivered request, on the rules both transports share
 * ({@link TriageRules}). In this order: a request past the delivery limit is refused unscanned
 * ({@code DELIVERY_LIMIT_EXCEEDED}: scanning a poison message again would only repeat whatever went
 * wrong); a request without {@code message_id} is refused as {@code MALFORMED_REQUEST}; a request
 * whose {@code reply_to} the {@link AmqpReplyDestinationPolicy} refuses is refused unscanned as
 * {@code REPLY_DESTINATION_NOT_ALLOWED} (a caller that may not be answered costs no scan), recorded
 * as ERROR {@code MALFORMED_REQUEST} and logged at WARN once per client and {@code reply_to} per
 * minute; any other request is scanned, and its reply routed by the policy (a request without
 * {@code reply_to} and no default reply queue is still scanned, so that its history document says
 * what it carried).
 *
 * <p>For a clean-pipe inbox ({@link #forPipe}) the first two checks are the same; then the message
 * is always scanned and forwarded, whatever its {@code reply_to}: one the policy allows also gets a
 * reply, one it refuses is logged as above and gets none, and no {@code reply_to} means no reply
 * (the default reply queue is for requests only).
 */
public final class AmqpRequestTriage implements RequestTriage<Message, String> {

  private final AmqpRequestMapper mapper;
  private final AmqpReplyDestinationPolicy policy;
  private final long deliveryLimit;
  private final Clock clock;
  private final ReplyRefusalLog refusals;
  private final Pipe pipe;
  private final RateLimitedWarning pipeRefusals;

  /**
   * @param deliveryLimit deliveries after the first a request may have; {@code Long.MAX_VALUE} for
   *     none
   */
  public AmqpRequestTriage(
      AmqpRequestMapper mapper,
      AmqpReplyDestinationPolicy policy,
      long deliveryLimit,
      Clock clock) {
    this(mapper, policy, deliveryLimit, clock, null);
  }

  private AmqpRequestTriage(
      AmqpRequestMapper mapper,
      AmqpReplyDestinationPolicy policy,
      long deliveryLimit,
      Clock clock,
      Pipe pipe) {
    this.mapper = mapper;
    this.policy = policy;
    this.deliveryLimit = deliveryLimit;
    this.clock = clock;
    this.refusals = new ReplyRefusalLog(clock);
    this.pipe = pipe;
    this.pipeRefusals =
        pipe == null
            ? null
            : new RateLimitedWarning(
                LoggerFactory.getLogger(ReplyRefusalLog.class), Duration.ofMinutes(1), 1000, clock);
  }

  /** The triage of the messages on {@code pipe}'s inbox. */
  public static AmqpRequestTriage forPipe(
      AmqpRequestMapper mapper,
      AmqpReplyDestinationPolicy policy,
      long deliveryLimit,
      Clock clock,
      Pipe pipe) {
    return new AmqpRequestTriage(
        mapper, policy, deliveryLimit, clock, Objects.requireNonNull(pipe));
  }

  /**
   * What happens to {@code message}: refused unscanned ({@link #beforeScan}), forwarded (a pipe
   * inbox), or scanned with its reply routed ({@link #replyRoute}).
   */
  public Triage triage(Message message) {
    String requestId = mapper.requestId(message);
    ScanRequest request = mapper.toScanRequest(message, requestId, clock.instant());
    String replyTo = mapper.replyTo(message);
    Optional<DeadLetter> refused = overLimitOrMalformed(message);
    ReplyRoute<String> route = null;
    if (refused.isEmpty()) {
      if (pipe != null) {
        return forward(request, replyTo);
      }
      route = route(replyTo, policy.defaultQueue());
      refused = refusedDestination(request, replyTo, route);
    }
    if (refused.isPresent()) {
      DeadLetter letter = refused.get();
      return new Triage.Refuse(
          request, letter.reason(), letter.reason().unscannedReason(), letter.detail());
    }
    return new Triage.Scan(request, route);
  }

  /**
   * Over the delivery limit (counted from {@code x-delivery-count}), without {@code message_id}, or
   * (not on a pipe inbox) a {@code reply_to} the policy refuses, logged at WARN once per client and
   * {@code reply_to} per minute.
   */
  @Override
  public Optional<DeadLetter> beforeScan(Message message) {
    Optional<DeadLetter> refused = overLimitOrMalformed(message);
    if (refused.isPresent() || pipe != null) {
      return refused;
    }
    String replyTo = mapper.replyTo(message);
    ScanRequest request = mapper.toScanRequest(message, mapper.requestId(message), clock.instant());
    return refusedDestination(request, replyTo, route(replyTo, policy.defaultQueue()));
  }

  /**
   * The policy's route for the message's {@code reply_to} ({@link #triage} asks it with the
   * policy's default reply queue). On a pipe inbox, a message without {@code reply_to} gets no
   * reply: the default reply queue is for requests only.
   */
  @Override
  public ReplyRoute<String> replyRoute(Message message, String defaultQueue) {
    return route(mapper.replyTo(message), defaultQueue);
  }

  /** {@link #replyRoute} of a {@code reply_to} already read (the mapper's: null when blank). */
  private ReplyRoute<String> route(String replyTo, String defaultQueue) {
    return pipe != null && replyTo == null
        ? new ReplyRoute.Undeliverable<>(
            DeadLetterReason.NO_REPLY_DESTINATION, "a pipe message without reply_to gets no reply")
        : policy.route(replyTo, defaultQueue);
  }

  private Optional<DeadLetter> overLimitOrMalformed(Message message) {
    Optional<String> overTheLimit =
        TriageRules.overDeliveryLimit(mapper.earlierDeliveries(message) + 1, deliveryLimit);
    if (overTheLimit.isPresent()) {
      return Optional.of(
          new DeadLetter(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED, overTheLimit.get()));
    }
    if (mapper.messageId(message) == null) {
      return Optional.of(
          new DeadLetter(DeadLetterReason.MALFORMED_REQUEST, "the request has no message_id"));
    }
    return Optional.empty();
  }

  /** The dead-letter of a {@code reply_to} the policy refuses (logged), or empty. */
  private Optional<DeadLetter> refusedDestination(
      ScanRequest request, String replyTo, ReplyRoute<String> route) {
    if (route instanceof ReplyRoute.Undeliverable<String> refused
        && refused.reason() == DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED) {
      refusals.refused(request, replyTo, refused.detail());
      return Optional.of(refused.deadLetter());
    }
    return Optional.empty();
  }

  private Triage forward(ScanRequest request, String replyTo) {
    return switch (route(replyTo, null)) {
      case ReplyRoute.To<String> to -> new Triage.Forward(request, pipe, to.destination());
      case ReplyRoute.Undeliverable<String> none
          when none.reason() != DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED ->
          new Triage.Forward(request, pipe, null);
      case ReplyRoute.Undeliverable<String> refused -> {
        String client = request.clientId() == null ? "(none)" : request.clientId();
        pipeRefusals.warn(
            client + " -> " + replyTo,
            "Refused reply destination {} of client {} ({}); pipe message {} is forwarded"
                + " without a reply",
            replyTo,
            client,
            refused.detail(),
            request.requestId());
        yield new Triage.Forward(request, pipe, null);
      }
    };
  }
}
