package io.github.avgateway.amqp.reply;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** What the broker did with one message the gateway published with {@code mandatory} set. */
public sealed interface PublishOutcome {

  /** Routed to a queue and confirmed: the broker has taken responsibility for it. */
  record Confirmed() implements PublishOutcome {}

  /**
   * Returned unroutable (e.g. no queue of that name), then confirmed.
   *
   * @param replyCode the AMQP reply code, e.g. 312
   * @param replyText the broker's text, e.g. {@code NO_ROUTE}
   */
  record Returned(int replyCode, String replyText) implements PublishOutcome {}

  /**
   * Negatively acknowledged by the broker itself: it does not hold the message (e.g. the history
   * queue at its bound with {@code x-overflow=reject-publish}).
   */
  record Nacked() implements PublishOutcome {}

  /**
   * Not confirmed: the channel was lost, the send failed, or no confirm came in time. Whether the
   * broker has the message is unknown.
   *
   * @param why what happened, for operators
   */
  record Failed(String why) implements PublishOutcome {}

  /**
   * The outcome of {@code future}, waiting until {@code deadline} ({@code System.nanoTime()}) at
   * most; {@link Failed} when it did not come in time, failed or the wait was interrupted.
   */
  static PublishOutcome await(CompletableFuture<PublishOutcome> future, long deadline) {
    try {
      long remaining = Math.max(0, deadline - System.nanoTime());
      return future.get(remaining, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return new Failed("no publisher confirm in time");
    } catch (ExecutionException e) {
      return new Failed("publish failed: " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Failed("interrupted while waiting for the publisher confirm");
    }
  }
}
