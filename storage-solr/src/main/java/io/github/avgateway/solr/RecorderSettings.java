package io.github.avgateway.solr;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link SolrHistoryRecorder} batches.
 *
 * @param batchSize most documents per update request
 * @param maxDelay longest a batch waits for more documents once it has one; zero sends whatever is
 *     queued at once (under light load a batch is one document either way)
 * @param queueCapacity documents that may wait; {@code record} blocks while the queue is full
 * @param concurrency update requests in flight at once
 * @param commitWithin visibility delay asked of Solr for every batch (a soft commit, never a commit
 *     per batch)
 * @param requestTimeout a queued document not sent within this is failed unsent; together with the
 *     client's own request timeout of the same length it bounds how long a future stays pending
 * @param probeInterval while writes fail, how often an idle recorder checks whether Solr is back
 */
public record RecorderSettings(
    int batchSize,
    Duration maxDelay,
    int queueCapacity,
    int concurrency,
    Duration commitWithin,
    Duration requestTimeout,
    Duration probeInterval) {

  public RecorderSettings {
    if (batchSize < 1 || queueCapacity < 1 || concurrency < 1) {
      throw new IllegalArgumentException("batch size, queue capacity and concurrency must be >= 1");
    }
    Objects.requireNonNull(maxDelay, "maxDelay");
    Objects.requireNonNull(commitWithin, "commitWithin");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(probeInterval, "probeInterval");
  }

  /** Defaults that suit the gateway on a small machine. */
  public static RecorderSettings defaults() {
    return new RecorderSettings(
        1_000,
        Duration.ofMillis(2),
        5_000,
        4,
        Duration.ofSeconds(1),
        Duration.ofSeconds(10),
        Duration.ofSeconds(1));
  }
}
