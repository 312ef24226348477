package io.github.avgateway.amqp;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.pipeline.ScanPipeline;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.amqp.core.Message;

/**
 * One request of a batch on its way from delivery to acknowledgement: scanned, its reply (or
 * dead-letter) published and confirmed, its history document accepted. Any step that fails marks it
 * failed, and a failed request is requeued, never acknowledged (a dead-letter that was not
 * confirmed is first published once more with the gateway's own headers only: {@link
 * DeadLetterAttempts}). Used by one consumer thread.
 */
final class BatchItem {

  private final Message message;
  private final AmqpReplyBuilder builder;
  private final AmqpReplyPublisher publisher;
  private Triage triage;
  private ScanResult result;
  private DeadLetterAttempts deadLetter;
  private CompletableFuture<PublishOutcome> pending;
  private boolean confirmed;
  private CompletableFuture<Void> recorded;
  private String failure;
  private boolean historyRefused;

  BatchItem(Message message, AmqpReplyBuilder builder, AmqpReplyPublisher publisher) {
    this.message = message;
    this.builder = builder;
    this.publisher = publisher;
  }

  long deliveryTag() {
    return message.getMessageProperties().getDeliveryTag();
  }

  /** Decides and scans (unless refused); {@link #publish()} then sends the answer. */
  void scan(RequestTriage requestTriage, ScanPipeline pipeline) {
    triage = requestTriage.triage(message);
    result =
        switch (triage) {
          case Triage.Scan scan -> pipeline.scan(scan.request());
          case Triage.Refuse refuse ->
              pipeline.refuse(refuse.request(), refuse.reason(), refuse.detail());
        };
  }

  /** True when clamd could not scan it (ERROR SCAN_FAILED): worth a new scan once clamd is back. */
  boolean scanFailed() {
    return failure == null
        && triage instanceof Triage.Scan
        && result.verdict() == Verdict.ERROR
        && result.reason() == Reason.SCAN_FAILED;
  }

  /** Publishes the reply, or the dead-letter when the triage or the route says so. */
  void publish() {
    if (failure != null) {
      return;
    }
    switch (triage) {
      case Triage.Scan scan -> {
        switch (scan.route()) {
          case ReplyRoute.ToQueue to ->
              pending = publisher.reply(to.queue(), builder.reply(result));
          case ReplyRoute.Undeliverable no -> deadLetter(no.reason(), no.detail());
        }
      }
      case Triage.Refuse refuse -> deadLetter(refuse.deadLetterReason(), refuse.detail());
    }
  }

  /**
   * Waits for the pending publish until {@code deadlineNanos}. A reply the broker returned as
   * unroutable turns into a {@code REPLY_UNROUTABLE} dead-letter, which is then pending.
   *
   * @return true when another publish is now pending and must be settled too
   */
  boolean settle(long deadlineNanos) {
    if (failure != null || confirmed) {
      return false;
    }
    switch (await(pending, deadlineNanos)) {
      case PublishOutcome.Confirmed ok -> confirmed = true;
      case PublishOutcome.Returned returned when deadLetter == null -> {
        deadLetter(
            DeadLetterReason.REPLY_UNROUTABLE,
            "the broker could not route the reply: " + returned.replyText());
        return true;
      }
      case PublishOutcome.Returned returned ->
          fail("the dead-letter exchange could not route the dead-letter: " + returned.replyText());
      case PublishOutcome.Failed failed when deadLetter != null && deadLetter.mayFallBack() -> {
        pending = deadLetter.bare(builder, publisher, failed.why());
        return true;
      }
      case PublishOutcome.Failed failed -> fail(failed.why());
    }
    return false;
  }

  /** The history document, for a request whose reply or dead-letter was confirmed; else null. */
  MessageInfo history(ScanPipeline pipeline) {
    if (failure != null || !confirmed) {
      return null;
    }
    return deadLetter == null
        ? pipeline.replied(triage.request(), result)
        : pipeline.deadLettered(triage.request(), result, deadLetter.reason());
  }

  void recording(CompletableFuture<Void> future) {
    recorded = future;
  }

  /**
   * After the history store refused this request's document (its reply is confirmed already):
   * clears that failure so that the document can be recorded again; false if it failed otherwise.
   */
  boolean retryHistory() {
    if (!historyRefused) {
      return false;
    }
    historyRefused = false;
    failure = null;
    recorded = null;
    return true;
  }

  /** Waits until {@code deadlineNanos} for the history store to accept the document. */
  void awaitRecorded(long deadlineNanos) {
    if (failure != null || recorded == null) {
      return;
    }
    try {
      recorded.get(remaining(deadlineNanos), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      historyRefused = true;
      fail("history store refused the document: " + e.getCause());
    } catch (TimeoutException e) {
      historyRefused = true;
      fail("history store did not accept the document in time");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted while waiting for the history store");
    }
  }

  /** True when the reply (or dead-letter) was confirmed and the history document accepted. */
  boolean done() {
    return failure == null
        && confirmed
        && recorded != null
        && recorded.isDone()
        && !recorded.isCompletedExceptionally();
  }

  void fail(String why) {
    if (failure == null) {
      failure = why;
    }
  }

  String failure() {
    return failure;
  }

  /** True when the history store refused or did not answer in time. */
  boolean historyRefused() {
    return historyRefused;
  }

  private void deadLetter(DeadLetterReason reason, String detail) {
    deadLetter = new DeadLetterAttempts(message, result, reason, detail);
    pending = deadLetter.first(builder, publisher);
  }

  private static PublishOutcome await(CompletableFuture<PublishOutcome> future, long deadline) {
    try {
      return future.get(remaining(deadline), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return new PublishOutcome.Failed("no publisher confirm in time");
    } catch (ExecutionException e) {
      return new PublishOutcome.Failed("publish failed: " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new PublishOutcome.Failed("interrupted while waiting for the publisher confirm");
    }
  }

  private static long remaining(long deadlineNanos) {
    return Math.max(0, deadlineNanos - System.nanoTime());
  }
}
