package io.github.avgateway.core.history;

import io.github.avgateway.core.model.MessageInfo;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The history hand-off each transport implements (docs/history-stream.md): sends the history
 * documents of one or more consumer batches to the broker in one history message. The future
 * completes with the broker's answer about that message ({@code R}, the transport's outcome: a
 * publisher confirm or nack on AMQP, a commit or refusal on JMS); a consumer batch is acknowledged
 * only once that answer says the broker holds the message. {@link HistoryBuffer} sits in front of
 * it to gather several batches into one message.
 *
 * @param <R> the transport's outcome of one history message
 */
@FunctionalInterface
public interface HistoryStream<R> {

  /** Sends {@code documents} (at least one) in one history message. */
  CompletableFuture<R> send(List<MessageInfo> documents);
}
