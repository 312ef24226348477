package io.github.avgateway.solr;

import java.time.Duration;

/** Told of every update request the history recorder sends (e.g. for metrics). Must not block. */
public interface HistoryBatchObserver {

  /** Observes nothing. */
  HistoryBatchObserver NONE = (documents, took, accepted) -> {};

  /**
   * One batch was sent.
   *
   * @param documents documents in the update request
   * @param took how long Solr took to answer (or to fail)
   * @param accepted whether Solr accepted the batch
   */
  void batch(int documents, Duration took, boolean accepted);
}
