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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pipeline's meters, fed as a {@link PipelineObserver}. Counts nothing until Spring Boot bound
 * it to the registry. Tags carry only closed sets of values (verdict, reason, transport): never a
 * request id, client id or file name; each combination's meter is looked up in the registry once
 * and then kept, so a request costs map look-ups, not a meter id built and searched per meter.
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

  /** A meter's tag values; a meter is looked up once per combination, then kept. */
  private record Tags(Object first, Object second, Object third) {}

  private final Map<Tags, Counter> scanCounters = new ConcurrentHashMap<>();
  private final Map<Tags, Counter> deadLetterCounters = new ConcurrentHashMap<>();
  private final Map<Tags, Counter> cacheHitCounters = new ConcurrentHashMap<>();
  private final Map<Tags, Timer> requestTimers = new ConcurrentHashMap<>();
  private final Map<Tags, Timer> scanTimers = new ConcurrentHashMap<>();

  private volatile MeterProvider<Counter> scans;
  private volatile MeterProvider<Counter> deadLetters;
  private volatile MeterProvider<Counter> cacheHits;
  private volatile MeterProvider<Timer> requestDuration;
  private volatile MeterProvider<Timer> scanDuration;
  private volatile DistributionSummary scanBytes;

  @Override
  public void bindTo(MeterRegistry registry) {
    scanCounters.clear();
    deadLetterCounters.clear();
    cacheHitCounters.clear();
    requestTimers.clear();
    scanTimers.clear();
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
    scanTimers
        .computeIfAbsent(
            new Tags(report.verdict(), null, null),
            t -> timer.withTags("verdict", report.verdict().name()))
        .record(took);
    scanBytes.record(bytes);
  }

  @Override
  public void finished(MessageInfo info) {
    MeterProvider<Counter> counter = scans;
    if (counter == null) {
      return;
    }
    String transport = info.transport();
    scanCounters
        .computeIfAbsent(
            new Tags(info.verdict(), info.reason(), transport),
            t ->
                counter.withTags(
                    "verdict",
                    info.verdict().name(),
                    "reason",
                    name(info.reason()),
                    "transport",
                    transport))
        .increment();
    if (info.disposition() == Disposition.DEAD_LETTERED) {
      deadLetterCounters
          .computeIfAbsent(
              new Tags(info.deadLetterReason(), transport, null),
              t ->
                  deadLetters.withTags(
                      "reason", info.deadLetterReason().name(), "transport", transport))
          .increment();
    }
    if (info.cached()) {
      cacheHitCounters
          .computeIfAbsent(
              new Tags(transport, null, null), t -> cacheHits.withTags("transport", transport))
          .increment();
    }
    requestTimers
        .computeIfAbsent(
            new Tags(transport, info.verdict(), null),
            t -> requestDuration.withTags("transport", transport, "verdict", info.verdict().name()))
        .record(Duration.ofMillis(info.totalMillis()));
  }

  private static String name(Reason reason) {
    return reason == null ? NONE : reason.name();
  }
}
