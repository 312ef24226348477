package io.github.avgateway.amqp;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.wire.ReplyToAllowList;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides where a reply may go, so that a caller cannot make the gateway publish to arbitrary
 * queues: a {@code reply_to} must match the allow-list pattern as a whole, and is never one of the
 * gateway's own queues (which would feed replies back in as requests). A request without {@code
 * reply_to} goes to the configured default reply queue, which the operator chose and which is
 * therefore not checked against the pattern.
 */
public final class AmqpReplyDestinationPolicy {

  private final ReplyToAllowList allowed;
  private final String defaultQueue;
  private final Set<String> forbidden;

  /**
   * @param allowed the whole-value pattern a {@code reply_to} must match
   * @param defaultQueue the default reply queue, or null for none
   * @param forbidden queue names a reply never goes to (the gateway's own queues)
   */
  public AmqpReplyDestinationPolicy(Pattern allowed, String defaultQueue, Set<String> forbidden) {
    this.allowed = new ReplyToAllowList(allowed);
    this.defaultQueue = defaultQueue;
    this.forbidden = Set.copyOf(forbidden);
  }

  /** The route for a request whose {@code reply_to} is {@code replyTo} (null or blank: none). */
  public ReplyRoute route(String replyTo) {
    if (replyTo == null || replyTo.isBlank()) {
      return defaultQueue != null
          ? new ReplyRoute.ToQueue(defaultQueue)
          : new ReplyRoute.Undeliverable(
              DeadLetterReason.NO_REPLY_DESTINATION,
              "the request has no reply_to and no default reply queue is configured");
    }
    if (forbidden.contains(replyTo)) {
      return new ReplyRoute.Undeliverable(
          DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED,
          "reply_to names one of the gateway's own queues");
    }
    if (!allowed.allows(replyTo)) {
      return new ReplyRoute.Undeliverable(
          DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED,
          "reply_to does not match the allowed pattern " + allowed.pattern());
    }
    return new ReplyRoute.ToQueue(replyTo);
  }
}
