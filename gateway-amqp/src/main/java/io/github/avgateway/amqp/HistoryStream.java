package io.github.avgateway.amqp;

import io.github.avgateway.core.model.MessageInfo;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Hands a consumer batch's history documents to the broker in a history message
 * (docs/history-stream.md): {@link AmqpHistoryStream} publishes one message per call, {@link
 * AmqpHistoryBuffer} gathers several calls' documents into one. The future completes with the
 * broker's answer about the message that carried them and never completes exceptionally: {@link
 * PublishOutcome.Confirmed} once the broker holds that message durably.
 */
@FunctionalInterface
public interface HistoryStream {

  /** History off (benchmarks only): nothing is published, every batch counts as handed over. */
  HistoryStream OFF =
      documents -> CompletableFuture.completedFuture(new PublishOutcome.Confirmed());

  /** Publishes {@code documents} (at least one, all of one batch) in one history message. */
  CompletableFuture<PublishOutcome> publish(List<MessageInfo> documents);
}
