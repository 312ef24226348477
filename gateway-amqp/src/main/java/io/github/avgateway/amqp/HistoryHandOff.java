package io.github.avgateway.amqp;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.pipeline.ScanPipeline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The last phase of a batch before its acknowledgement: the documents of every request whose reply
 * or dead-letter was confirmed go to the broker as one history message, with a publisher confirm.
 * When the backlog is full (the broker nacks it), the batch is held ({@link IntakeHold}: intake is
 * down meanwhile, through the {@code HistoryBacklogGate}) and published again once the backlog has
 * room ({@link AmqpBacklogProbe}); the replies are not sent again. Used by one consumer thread at a
 * time.
 */
final class HistoryHandOff {

  /** Publishes of a refused history message, each after intake opened again, before requeueing. */
  private static final int ATTEMPTS = 20;

  private final HistoryStream stream;
  private final IntakeHold hold;
  private final Duration timeout;

  HistoryHandOff(HistoryStream stream, IntakeHold hold, Duration timeout) {
    this.stream = stream;
    this.hold = hold;
    this.timeout = timeout;
  }

  /** Hands over the documents of {@code items}; {@code onHeld} runs when a full backlog holds. */
  void handOver(List<BatchItem> items, ScanPipeline pipeline, Runnable onHeld) {
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
      return;
    }
    for (int attempt = 1; ; attempt++) {
      long deadline = System.nanoTime() + timeout.toNanos();
      switch (BatchItem.await(stream.publish(documents), deadline)) {
        case PublishOutcome.Confirmed ok -> {
          holders.forEach(BatchItem::historyHandedOver);
          return;
        }
        case PublishOutcome.Nacked nacked -> {
          if (attempt >= ATTEMPTS || !hold.awaitOpen(onHeld)) {
            String why = "history backlog full, the broker refused the history message";
            holders.forEach(item -> item.historyRefused(why));
            return;
          }
        }
        case PublishOutcome.Returned returned -> {
          String why = "the broker could not route the history message: " + returned.replyText();
          holders.forEach(item -> item.fail(why));
          return;
        }
        case PublishOutcome.Failed failed -> {
          holders.forEach(item -> item.fail("history message: " + failed.why()));
          return;
        }
      }
    }
  }
}
