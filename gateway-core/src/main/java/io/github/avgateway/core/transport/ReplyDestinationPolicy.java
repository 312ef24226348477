package io.github.avgateway.core.transport;

import java.util.Optional;

/**
 * Where a caller may have its replies sent, so that a request cannot make the gateway write into
 * arbitrary queues. Each transport implements it for its own destination type ({@code D}: a {@code
 * reply_to} name on AMQP, a JMS {@code Destination}) and applies the same {@link
 * ReplyDestinationRule} to the name; a refused destination is dead-lettered unscanned as {@code
 * REPLY_DESTINATION_NOT_ALLOWED}. No I/O.
 *
 * @param <D> the transport's reply destination
 */
@FunctionalInterface
public interface ReplyDestinationPolicy<D> {

  /**
   * Empty when replies may go to {@code replyTo}; else why not, a sentence for operators that names
   * the transport's field.
   *
   * @param replyTo the destination the request named (never null)
   */
  Optional<String> refusal(D replyTo);
}
