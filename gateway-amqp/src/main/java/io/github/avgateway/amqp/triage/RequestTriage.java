package io.github.avgateway.amqp.triage;

import io.github.avgateway.core.logging.RateLimitedWarning;
import io.github.avgateway.core.logging.ReplyRefusalLog;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.pipe.Pipe;
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
public final class RequestTriage {

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
  public RequestTriage(
      AmqpRequestMapper mapper,
      AmqpReplyDestinationPolicy policy,
      long deliveryLimit,
      Clock clock) {
    this(mapper, policy, deliveryLimit, clock, null);
  }

  private RequestTriage(
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
  public static RequestTriage forPipe(
      AmqpRequestMapper mapper,
      AmqpReplyDestinationPolicy policy,
      long deliveryLimit,
      Clock clock,
      Pipe pipe) {
    return new RequestTriage(mapper, policy, deliveryLimit, clock, Objects.requireNonNull(pipe));
  }

  public Triage triage(Message message) {
    String requestId = mapper.requestId(message);
    ScanRequest request = mapper.toScanRequest(message, requestId, clock.instant());
    Optional<String> overTheLimit =
        TriageRules.overDeliveryLimit(mapper.earlierDeliveries(message) + 1, deliveryLimit);
    if (overTheLimit.isPresent()) {
      return new Triage.Refuse(
          request,
          DeadLetterReason.DELIVERY_LIMIT_EXCEEDED,
          DeadLetterReason.DELIVERY_LIMIT_EXCEEDED.unscannedReason(),
          overTheLimit.get());
    }
    if (mapper.messageId(message) == null) {
      return new Triage.Refuse(
          request,
          DeadLetterReason.MALFORMED_REQUEST,
          DeadLetterReason.MALFORMED_REQUEST.unscannedReason(),
          "the request has no message_id");
    }
    String replyTo = mapper.replyTo(message);
    if (pipe != null) {
      return forward(request, replyTo);
    }
    ReplyRoute route = policy.route(replyTo);
    if (route instanceof ReplyRoute.Undeliverable refused
        && refused.reason() == DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED) {
      refusals.refused(request, replyTo, refused.detail());
      return new Triage.Refuse(
          request, refused.reason(), refused.reason().unscannedReason(), refused.detail());
    }
    return new Triage.Scan(request, route);
  }

  private Triage forward(ScanRequest request, String replyTo) {
    if (replyTo == null) {
      return new Triage.Forward(request, pipe, null);
    }
    return switch (policy.route(replyTo)) {
      case ReplyRoute.ToQueue to -> new Triage.Forward(request, pipe, to.queue());
      case ReplyRoute.Undeliverable refused -> {
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
