package io.github.avgateway.amqp.history;

import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.history.HistoryBuffer;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.model.MessageInfo;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The history stream with core's {@link HistoryBuffer} in front: the documents of the consumer
 * batches that finish while a history message is on its way go together in the next one. Each batch
 * gets the outcome of the message that carried its documents, so a batch is acknowledged only once
 * the broker confirmed them, as without the buffer; a nack (backlog full) reaches every batch of
 * the message, and each is held and published again on its own ({@code intake.HistoryHandOff}). The
 * buffer's thread publishes on a channel of the publisher connection kept for batches ({@link
 * AmqpReplyPublisher#onBatchChannels}).
 */
public final class AmqpHistoryBuffer implements HistoryStream<PublishOutcome>, AutoCloseable {

  private final HistoryBuffer<PublishOutcome> buffer;

  public AmqpHistoryBuffer(
      HistoryStream<PublishOutcome> stream,
      AmqpReplyPublisher publisher,
      HistoryStreamProperties.Buffer settings) {
    this.buffer =
        new HistoryBuffer<>(
            "avgateway-amqp-history-buffer",
            documents -> publisher.onBatchChannels(() -> stream.send(documents)),
            error -> new PublishOutcome.Failed("history message: " + error),
            settings.maxDocuments(),
            settings.maxWait());
  }

  @Override
  public CompletableFuture<PublishOutcome> send(List<MessageInfo> documents) {
    return buffer.submit(documents);
  }

  /** Publishes what is still buffered; once the consumers stopped. */
  @Override
  public void close() {
    buffer.close();
  }
}
