package io.github.avgateway.amqp.intake;

import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.pipeline.ScanPipeline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The last phase of a batch before its acknowledgement: the documents of every request whose reply
 * or dead-letter was confirmed go to the history stream (with the buffer of the default
 * configuration, in one history message that may also carry other batches' documents), with a
 * publisher confirm of that message. The consumer does not wait for that confirm: {@link #handOver}
 * returns a future that completes once every request of the batch knows its outcome, and the batch
 * then waits in its channel's {@link AckLine} while the consumer takes its next batch. When the
 * backlog is full (the broker nacks it), the batch is held on a thread of its own ({@link
 * AmqpIntakeHold}: intake is down meanwhile, through the {@code HistoryBacklogGate}) and published
 * again once the backlog has room ({@code history.AmqpBacklogProbe}); the replies are not sent
 * again.
 */
final class HistoryHandOff {

  /** Publishes of a refused history message, each after intake opened again, before requeueing. */
  private static final int ATTEMPTS = 20;

  private final HistoryStream<PublishOutcome> stream;
  private final AmqpIntakeHold hold;
  private final Duration timeout;

  HistoryHandOff(HistoryStream<PublishOutcome> stream, AmqpIntakeHold hold, Duration timeout) {
    this.stream = stream;
    this.hold = hold;
    this.timeout = timeout;
  }

  /**
   * Publishes the documents of {@code items}; the future completes (never exceptionally) once each
   * item was told the outcome: handed over, refused or failed. {@code onHeld} runs when a full
   * backlog holds.
   */
  CompletableFuture<Void> handOver(List<BatchItem> items, ScanPipeline pipeline, Runnable onHeld) {
    List<BatchItem> holders = new ArrayList<>(items.size());
    List<MessageInfo> documents = new ArrayList<>(items.size());
    for (BatchItem item : items) {
      MessageInfo doc = item.history(pipeline);
      if (doc != null) {
        holders.add(item);
        documents.add(doc);
      }
    }
    if (documents.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return publish(documents)
        .thenCompose(outcome -> {
          if (outcome instanceof PublishOutcome.Nacked) {
            return CompletableFuture.runAsync(
                () -> holdAndRepublish(holders, documents, onHeld), HistoryHandOff::held);
          }
          tell(holders, outcome);
          return CompletableFuture.<Void>completedFuture(null);
        })
        .exceptionally(error -> {
          holders.forEach(item -> item.fail("history message: " + error));
          return null;
        });
  }

  /** One publish of the history message; its future completes within {@code timeout}. */
  private CompletableFuture<PublishOutcome> publish(List<MessageInfo> documents) {
    return stream
        .send(documents)
        .completeOnTimeout(
            new PublishOutcome.Failed("no publisher confirm in time"),
            timeout.toNanos(),
            TimeUnit.NANOSECONDS);
  }

  /** Waits for room in the backlog and publishes again, on a thread of its own. */
  private void holdAndRepublish(
      List<BatchItem> holders, List<MessageInfo> documents, Runnable onHeld) {
    PublishOutcome outcome = new PublishOutcome.Nacked();
    for (int attempt = 1; outcome instanceof PublishOutcome.Nacked; attempt++) {
      if (attempt >= ATTEMPTS || !hold.awaitOpen(onHeld)) {
        String why = "history backlog full, the broker refused the history message";
        holders.forEach(item -> item.historyRefused(why));
        return;
      }
      outcome = PublishOutcome.await(publish(documents), System.nanoTime() + timeout.toNanos());
    }
    tell(holders, outcome);
  }

  /** Tells each holder a settled (not nacked) outcome. */
  private static void tell(List<BatchItem> holders, PublishOutcome outcome) {
    switch (outcome) {
      case PublishOutcome.Confirmed ok -> holders.forEach(BatchItem::historyHandedOver);
      case PublishOutcome.Returned returned -> {
        String why = "the broker could not route the history message: " + returned.replyText();
        holders.forEach(item -> item.fail(why));
      }
      case PublishOutcome.Failed failed ->
          holders.forEach(item -> item.fail("history message: " + failed.why()));
      case PublishOutcome.Nacked nacked -> throw new IllegalStateException("nacks are held");
    }
  }

  private static void held(Runnable hold) {
    Thread.ofVirtual().name("avgateway-amqp-history-hold").start(hold);
  }
}
