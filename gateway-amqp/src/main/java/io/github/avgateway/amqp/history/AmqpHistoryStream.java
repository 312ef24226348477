package io.github.avgateway.amqp.history;

import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.wire.HistoryMessages;
import io.github.avgateway.core.wire.WireNames;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;

/**
 * The history stream on RabbitMQ: one persistent message per batch on the history queue, through
 * the default exchange, {@code mandatory}, with a publisher confirm. Headers {@code
 * avHistorySchema} and {@code avDocuments}; {@code timestamp} = when it was published. A full
 * backlog ({@code x-overflow=reject-publish}) answers with a nack ({@link PublishOutcome.Nacked}),
 * which closes the {@link HistoryBacklogGate}; a confirm opens it.
 */
public final class AmqpHistoryStream implements HistoryStream<PublishOutcome> {

  /** History off (benchmarks only): nothing is published, every batch counts as handed over. */
  public static final HistoryStream<PublishOutcome> OFF =
      documents -> CompletableFuture.completedFuture(new PublishOutcome.Confirmed());

  private final AmqpReplyPublisher publisher;
  private final String queue;
  private final HistoryBacklogGate backlog;
  private final Clock clock;

  public AmqpHistoryStream(
      AmqpReplyPublisher publisher, String queue, HistoryBacklogGate backlog, Clock clock) {
    this.publisher = publisher;
    this.queue = queue;
    this.backlog = backlog;
    this.clock = clock;
  }

  @Override
  public CompletableFuture<PublishOutcome> send(List<MessageInfo> documents) {
    MessageProperties props = new MessageProperties();
    props.setContentType(HistoryMessages.CONTENT_TYPE);
    props.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
    props.setTimestamp(Date.from(clock.instant()));
    props.setHeader(WireNames.HISTORY_SCHEMA, HistoryMessages.SCHEMA);
    props.setHeader(WireNames.HISTORY_DOCUMENTS, documents.size());
    Message message = new Message(HistoryMessages.encode(documents), props);
    return publisher
        .toQueue(queue, message)
        .thenApply(outcome -> {
          switch (outcome) {
            case PublishOutcome.Confirmed ok -> backlog.accepted(documents.size());
            case PublishOutcome.Nacked nacked ->
                backlog.full("x-overflow=reject-publish: at x-max-length or x-max-length-bytes");
            case PublishOutcome.Failed failed -> {}
            case PublishOutcome.Returned returned -> {}
          }
          return outcome;
        });
  }
}
