package io.github.avgateway.amqp.pipe;

import io.github.avgateway.amqp.reply.AmqpReplyBuilder;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.amqp.triage.Triage;
import io.github.avgateway.core.logging.RateLimitedWarning;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipe.PipeOutlet;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;

/**
 * The forward of one clean-pipe message to the outlet of its verdict (never to clean unless CLEAN:
 * {@link PipeOutlet#forVerdict}), and its reply when the producer asked for one. Both are published
 * together, {@code mandatory}, with a publisher confirm each; the message counts as forwarded only
 * when both are confirmed. A reply the broker cannot route is logged (once a minute per reply
 * queue) and skipped: the file's disposition is what the pipe is for. A forward it cannot route is
 * the caller's to dead-letter.
 */
public final class PipeForward {

  /** One line per reply queue per minute: a producer can send unroutable reply_to at will. */
  private static final RateLimitedWarning UNROUTABLE_REPLIES =
      new RateLimitedWarning(
          LoggerFactory.getLogger(PipeForward.class),
          Duration.ofMinutes(1),
          1000,
          Clock.systemUTC());

  private final Triage.Forward forward;
  private final PipeOutlet outlet;
  private CompletableFuture<PublishOutcome> reply;

  public PipeForward(Triage.Forward forward, ScanResult result) {
    this.forward = forward;
    this.outlet = PipeOutlet.forVerdict(result.verdict());
  }

  public PipeOutlet outlet() {
    return outlet;
  }

  /** The queue the message goes to. */
  public String queue() {
    return forward.pipe().destination(outlet);
  }

  /** Publishes the reply (if any) and the forward; returns the forward's outcome. */
  public CompletableFuture<PublishOutcome> publish(
      Message original, ScanResult result, AmqpReplyBuilder builder, AmqpReplyPublisher publisher) {
    try {
      if (forward.replyQueue() != null) {
        reply = publisher.reply(forward.replyQueue(), builder.reply(result));
      }
      return publisher.toQueue(queue(), builder.forward(original, result));
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(new PublishOutcome.Failed(e.toString()));
    }
  }

  /**
   * Waits for the reply's confirm, if a reply was sent, until {@code deadlineNanos}.
   *
   * @return null when there is no reply, or it was confirmed or returned unroutable (logged);
   *     otherwise why it was not confirmed
   */
  public String settleReply(long deadlineNanos) {
    if (reply == null) {
      return null;
    }
    PublishOutcome outcome = PublishOutcome.await(reply, deadlineNanos);
    return switch (outcome) {
      case PublishOutcome.Confirmed ok -> null;
      case PublishOutcome.Returned returned -> {
        UNROUTABLE_REPLIES.warn(
            forward.replyQueue(),
            "The reply to pipe message {} could not be routed to {} ({}); it was forwarded to {}"
                + " without a reply",
            forward.request().requestId(),
            forward.replyQueue(),
            returned.replyText(),
            queue());
        yield null;
      }
      case PublishOutcome.Nacked nacked -> "the reply was nacked by the broker";
      case PublishOutcome.Failed failed -> "the reply: " + failed.why();
    };
  }
}
