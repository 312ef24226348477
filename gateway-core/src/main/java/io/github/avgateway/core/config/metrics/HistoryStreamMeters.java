package io.github.avgateway.core.config.metrics;

import io.github.avgateway.core.history.BacklogSize;
import io.github.avgateway.core.history.IndexerStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The history stream's meters, read when scraped:
 *
 * <ul>
 *   <li>{@code avgateway.history.backlog.messages} — history messages waiting in the broker (each
 *       holds one or more consumer batches' documents); only where the front-end can count them
 *   <li>{@code avgateway.history.backlog.documents} — about how many documents those messages hold:
 *       the count times the mean documents per history message this process sent or indexed (an
 *       estimate: the brokers count messages); absent until this process saw a history message
 *   <li>{@code avgateway.history.indexed.documents} — documents this process's indexer wrote to the
 *       store (a counter: its rate is documents indexed per second)
 *   <li>{@code avgateway.history.indexer.lag} — seconds since the oldest document the indexer holds
 *       un-indexed was received; 0 while it keeps up
 * </ul>
 */
public final class HistoryStreamMeters implements MeterBinder {

  private final IndexerStatus status;
  private final BacklogSize backlog;

  /**
   * @param status the indexer's, or null when this process does not index
   * @param backlog the backlog, or null when the front-end cannot count it
   */
  public HistoryStreamMeters(IndexerStatus status, BacklogSize backlog) {
    this.status = status;
    this.backlog = backlog;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    if (backlog != null) {
      Gauge.builder("avgateway.history.backlog.messages", backlog, BacklogSize::messages)
          .description("History messages waiting in the broker for an indexer")
          .register(registry);
      Gauge.builder("avgateway.history.backlog.documents", backlog, b -> estimate(b.documents()))
          .description("About how many documents the waiting history messages hold")
          .register(registry);
    }
    if (status != null) {
      FunctionCounter.builder(
              "avgateway.history.indexed.documents", status, IndexerStatus::documentsIndexed)
          .description("History documents the indexer wrote to the store")
          .register(registry);
      Gauge.builder("avgateway.history.indexer.lag", status, s -> s.lag().toMillis() / 1000.0)
          .description("Age of the oldest document the indexer holds un-indexed")
          .baseUnit("seconds")
          .register(registry);
    }
  }

  /** A gauge reports no value (NaN) rather than -1 while the estimate is unknown. */
  private static double estimate(long documents) {
    return documents < 0 ? Double.NaN : documents;
  }
}
