package io.github.avgateway.solr.config;

import io.github.avgateway.solr.HistoryBatchObserver;
import io.github.avgateway.solr.SolrHistoryRecorder;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The history store's meters: {@code avgateway.history.batch.size} (documents per update request),
 * {@code avgateway.history.batch.duration} (Solr's answer time, tagged {@code
 * outcome=accepted|failed}), {@code avgateway.history.queue.depth} (documents waiting to be sent)
 * and the second-copy check's {@code avgateway.history.copies.removed}, {@code
 * avgateway.history.copies.unchecked} and {@code avgateway.history.copies.watched}. Records nothing
 * until Spring Boot bound it to the registry.
 */
final class SolrHistoryMeters implements HistoryBatchObserver, MeterBinder {

  private final Supplier<SolrHistoryRecorder> recorder;
  private volatile DistributionSummary batchSize;
  private volatile MeterProvider<Timer> batchDuration;

  /**
   * @param recorder the recorder whose queue is measured (looked up when bound: the recorder itself
   *     is built with this observer)
   */
  SolrHistoryMeters(Supplier<SolrHistoryRecorder> recorder) {
    this.recorder = recorder;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    batchSize =
        DistributionSummary.builder("avgateway.history.batch.size")
            .description("Documents per Solr update request")
            .baseUnit("documents")
            .publishPercentileHistogram()
            .register(registry);
    batchDuration =
        Timer.builder("avgateway.history.batch.duration")
            .description("Time Solr took to answer one update request")
            .publishPercentileHistogram()
            .withRegistry(registry);
    SolrHistoryRecorder measured = recorder.get();
    if (measured != null) {
      Gauge.builder("avgateway.history.queue.depth", measured, SolrHistoryRecorder::queued)
          .description("History documents waiting to be sent to Solr")
          .baseUnit("documents")
          .register(registry);
      FunctionCounter.builder(
              "avgateway.history.copies.removed",
              measured,
              SolrHistoryRecorder::secondCopiesRemoved)
          .description("Second copies of redelivered requests' documents deleted after the fact")
          .baseUnit("documents")
          .register(registry);
      FunctionCounter.builder(
              "avgateway.history.copies.unchecked",
              measured,
              SolrHistoryRecorder::secondCopiesUnchecked)
          .description("Redelivered documents not checked for a second copy (watch list full)")
          .baseUnit("documents")
          .register(registry);
      Gauge.builder(
              "avgateway.history.copies.watched",
              measured,
              SolrHistoryRecorder::secondCopiesWatched)
          .description("Redelivered documents still to be checked for a second copy")
          .baseUnit("documents")
          .register(registry);
    }
  }

  @Override
  public void batch(int documents, Duration took, boolean accepted) {
    DistributionSummary sizes = batchSize;
    if (sizes == null) {
      return;
    }
    sizes.record(documents);
    batchDuration.withTags("outcome", accepted ? "accepted" : "failed").record(took);
  }
}
