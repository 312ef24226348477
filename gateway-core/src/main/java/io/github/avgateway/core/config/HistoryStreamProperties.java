package io.github.avgateway.core.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The history stream ({@code avgateway.history.*}, docs/history-stream.md): the broker queue that
 * carries each consumer batch's history documents from the scan path to the history indexer, its
 * bound, and the indexer that drains it into the history store. The same keys on both transports.
 *
 * @param enabled whether the scan path hands history to the broker at all; {@code false} records no
 *     history (for benchmarks that measure the gateway without it)
 * @param queue the history queue (RabbitMQ queue / Artemis anycast address and queue)
 * @param deadLetterQueue where the indexer puts history messages it cannot read, with {@code
 *     avReason}
 * @param maxBytes the backlog bound in bytes: RabbitMQ {@code x-max-length-bytes}; Artemis {@code
 *     page-limit-bytes} of the embedded broker's history address. When it is reached, publishing
 *     history fails and intake pauses until the indexer drained below it
 * @param maxMessages the backlog bound in history messages (each holds one or more consumer
 *     batches' documents): RabbitMQ {@code x-max-length}
 * @param buffer how the documents of several consumer batches are gathered into one history message
 * @param indexer the indexer that drains the queue into the history store
 */
@ConfigurationProperties("avgateway.history")
@Validated
public record HistoryStreamProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("av.history") @NotBlank String queue,
    @DefaultValue("av.history.dead-letters") @NotBlank String deadLetterQueue,
    @DefaultValue("2GB") @NotNull DataSize maxBytes,
    @DefaultValue("1000000") @Positive long maxMessages,
    @DefaultValue @Valid @NotNull Buffer buffer,
    @DefaultValue @Valid @NotNull Indexer indexer) {

  /**
   * The buffer in front of the history queue (core's {@code HistoryBuffer}): a history message goes
   * out at once while none is on its way to the broker; the batches that finish while one is wait
   * for its answer and go together in the next, unless they reach {@code maxDocuments} or the
   * oldest has waited {@code maxWait}. A batch is acknowledged only after the message that carried
   * its documents is held by the broker, so the buffer delays acknowledgements, never replies. On
   * JMS the buffer commits each message on a session of its own, and a batch commits its replies
   * and consumption after the message holding its documents was committed.
   *
   * @param enabled whether batches share history messages; off, each consumer batch sends its own
   *     (AMQP: published and confirmed per batch; JMS: in the batch's transaction)
   * @param maxDocuments the most documents one history message holds (a batch is never split, so
   *     one larger batch still goes whole)
   * @param maxWait the longest a batch's documents wait in the buffer for the message on its way
   */
  public record Buffer(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("256") @Positive int maxDocuments,
      @DefaultValue("5ms") @NotNull Duration maxWait) {}

  /**
   * The history indexer. Runs inside each gateway by default; switch it off on a gateway whose
   * history another process indexes (scanning and indexing scale apart; indexers are competing
   * consumers).
   *
   * @param enabled whether this process indexes
   * @param batchSize history messages taken per poll (each holds one or more consumer batches'
   *     documents), written to the store as one batch of documents
   * @param acceptTimeout how long a poll waits for the store to accept its documents
   * @param backoffFirst the cap of the first wait after the store refused; each wait is drawn at
   *     random up to its cap (full jitter), the cap doubling up to {@code backoffMax}
   * @param backoffMax the longest wait between attempts while the store refuses
   */
  public record Indexer(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("64") @Positive int batchSize,
      @DefaultValue("60s") @NotNull Duration acceptTimeout,
      @DefaultValue("500ms") @NotNull Duration backoffFirst,
      @DefaultValue("10s") @NotNull Duration backoffMax) {}
}
