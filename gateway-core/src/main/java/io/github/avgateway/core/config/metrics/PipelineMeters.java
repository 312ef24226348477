package io.github.avgateway.core.config.metrics;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.port.PipelineObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;

/**
 * The pipeline's meters, fed as a {@link PipelineObserver}. Counts nothing until Spring Boot bound
 * it to the registry. Tags carry only closed sets of values (verdict, reason, transport): never a
 * request id, client id or file name.
 *
 * <ul>
 *   <li>{@code avgateway.scans} — requests handled, by verdict, reason and transport (a redelivered
 *       request counts again)
 *   <li>{@code avgateway.dead.letters} — requests dead-lettered, by dead-letter reason
 *   <li>{@code avgateway.cache.hits} — verdicts answered from the verdict cache
 *   <li>{@code avgateway.request.duration} — end to end, from receipt to the reply or dead-letter
 *   <li>{@code avgateway.scan.duration} — the scanner alone, by verdict
 *   <li>{@code avgateway.scan.bytes} — payload bytes sent to the scanner, per scan
 * </ul>
 */
public final class PipelineMeters implements PipelineObserver, MeterBinder {

  private static final String NONE = "none";

  private volatile MeterProvider<Counter> scans;
  private volatile MeterProvider<Counter> deadLetters;
  private volatile MeterProvider<Counter> cacheHits;
  private volatile MeterProvider<Timer> requestDuration;
  private volatile MeterProvider<Timer> scanDuration;
  private volatile DistributionSummary scanBytes;

  @Override
  public void bindTo(MeterRegistry registry) {
    scans =
        Counter.builder("avgateway.scans")
            .description("Requests handled, by verdict and reason")
            .withRegistry(registry);
    deadLetters =
        Counter.builder("avgateway.dead.letters")
            .description("Requests dead-lettered, by reason")
            .withRegistry(registry);
    cacheHits =
        Counter.builder("avgateway.cache.hits")
            .description("Verdicts answered from the verdict cache")
            .withRegistry(registry);
    requestDuration =
        Timer.builder("avgateway.request.duration")
            .description("From receipt of a request to its reply or dead-letter")
            .publishPercentileHistogram()
            .withRegistry(registry);
    scanDuration =
        Timer.builder("avgateway.scan.duration")
            .description("Time the scanner took for one payload")
            .publishPercentileHistogram()
            .withRegistry(registry);
    scanBytes =
        DistributionSummary.builder("avgateway.scan.bytes")
            .description("Payload bytes sent to the scanner, per scan")
            .baseUnit("bytes")
            .register(registry);
  }

  @Override
  public void scanned(ScanReport report, long bytes, Duration took) {
    MeterProvider<Timer> timer = scanDuration;
    if (timer == null) {
      return;
    }
    timer.withTags("verdict", report.verdict().name()).record(took);
    scanBytes.record(bytes);
  }

  @Override
  public void finished(MessageInfo info) {
    MeterProvider<Counter> counter = scans;
    if (counter == null) {
      return;
    }
    String transport = info.transport();
    counter
        .withTags(
            "verdict", info.verdict().name(), "reason", name(info.reason()), "transport", transport)
        .increment();
    if (info.disposition() == Disposition.DEAD_LETTERED) {
      deadLetters
          .withTags("reason", info.deadLetterReason().name(), "transport", transport)
          .increment();
    }
    if (info.cached()) {
      cacheHits.withTags("transport", transport).increment();
    }
    requestDuration
        .withTags("transport", transport, "verdict", info.verdict().name())
        .record(Duration.ofMillis(info.totalMillis()));
  }

  private static String name(Reason reason) {
    return reason == null ? NONE : reason.name();
  }
}
