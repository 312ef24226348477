package io.github.avgateway.amqp.triage;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.transport.ReplyDestinationPolicy;
import io.github.avgateway.core.transport.ReplyDestinationRule;
import io.github.avgateway.core.transport.ReplyRoute;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides where a reply may go, so that a caller cannot make the gateway publish to arbitrary
 * queues: a {@code reply_to} must match the allow-list pattern as a whole, and is never one of the
 * gateway's own queues (which would feed replies back in as requests), core's {@link
 * ReplyDestinationRule}. A request without {@code reply_to} goes to the configured default reply
 * queue, which the operator chose and which is therefore not checked against the pattern.
 */
public final class AmqpReplyDestinationPolicy implements ReplyDestinationPolicy<String> {

  private final ReplyDestinationRule rule;
  private final String defaultQueue;

  /**
   * @param allowed the whole-value pattern a {@code reply_to} must match
   * @param defaultQueue the default reply queue, or null for none
   * @param forbidden queue names a reply never goes to (the gateway's own queues)
   */
  public AmqpReplyDestinationPolicy(Pattern allowed, String defaultQueue, Set<String> forbidden) {
    this.rule = new ReplyDestinationRule(allowed, forbidden);
    this.defaultQueue = defaultQueue;
  }

  @Override
  public Optional<String> refusal(String replyTo) {
    return rule.refusal("reply_to", replyTo);
  }

  /** The route for a request whose {@code reply_to} is {@code replyTo} (null or blank: none). */
  public ReplyRoute<String> route(String replyTo) {
    return route(replyTo, defaultQueue);
  }

  /** The configured default reply queue, or null. */
  public String defaultQueue() {
    return defaultQueue;
  }

  /** As {@link #route(String)}, with {@code defaultQueue} for the configured one. */
  ReplyRoute<String> route(String replyTo, String defaultQueue) {
    if (replyTo == null || replyTo.isBlank()) {
      return defaultQueue != null
          ? new ReplyRoute.To<>(defaultQueue)
          : new ReplyRoute.Undeliverable<>(
              DeadLetterReason.NO_REPLY_DESTINATION,
              "the request has no reply_to and no default reply queue is configured");
    }
    return refusal(replyTo)
        .<ReplyRoute<String>>map(why ->
            new ReplyRoute.Undeliverable<>(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, why))
        .orElseGet(() -> new ReplyRoute.To<>(replyTo));
  }
}
