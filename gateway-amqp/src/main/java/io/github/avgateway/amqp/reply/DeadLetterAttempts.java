package io.github.avgateway.amqp.reply;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanResult;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;

/**
 * The dead-letter of one request: first with the request's headers; if the broker does not confirm
 * that one, once more with the gateway's own headers only, so that what a request carries (headers
 * too large for a frame, say) never sends it round the delivery limit. A broker that is away fails
 * the second one too, and then the request is requeued.
 */
public final class DeadLetterAttempts {

  private static final Logger log = LoggerFactory.getLogger(DeadLetterAttempts.class);

  private final Message request;
  private final ScanResult result;
  private final DeadLetterReason reason;
  private final String detail;
  private boolean bare;

  public DeadLetterAttempts(
      Message request, ScanResult result, DeadLetterReason reason, String detail) {
    this.request = request;
    this.result = result;
    this.reason = reason;
    this.detail = detail;
  }

  public DeadLetterReason reason() {
    return reason;
  }

  /** Publishes the dead-letter with the request's headers; a build failure is a failed publish. */
  public CompletableFuture<PublishOutcome> first(
      AmqpReplyBuilder builder, AmqpReplyPublisher publisher) {
    try {
      return publisher.deadLetter(builder.deadLetter(request, result, reason, detail));
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(new PublishOutcome.Failed(e.toString()));
    }
  }

  /** Whether the bare dead-letter has not been tried yet. */
  public boolean mayFallBack() {
    return !bare;
  }

  /** Publishes the bare dead-letter (once), after the first failed because of {@code why}. */
  public CompletableFuture<PublishOutcome> bare(
      AmqpReplyBuilder builder, AmqpReplyPublisher publisher, String why) {
    bare = true;
    log.warn(
        "The {} dead-letter of request {} was not confirmed with the request's headers ({});"
            + " publishing it with the gateway's own headers only",
        reason,
        result.requestId(),
        why);
    return publisher.deadLetter(builder.bareDeadLetter(request, result, reason, detail));
  }
}
