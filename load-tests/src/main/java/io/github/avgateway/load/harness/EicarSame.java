package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The AVS workload ({@code --payload=eicar-same}): the same 68-byte EICAR file, {@code --requests}
 * times (10,001), INFECTED expected, in a closed loop, through each gateway twice in one
 * invocation: verdict cache forced on ({@code avgateway.pipeline.cache.enabled=true}) and off
 * ({@code false}). Forced, not {@code auto}: the project's clamd runs custom signatures only and
 * reports no database version, so {@code auto} would be off. A fixed count, not a fixed time: the
 * cell's rate is the requests over the time from the first send to the last answer. With {@code
 * --baseline}, the baseline checkout's gateway runs each variant right after this build's. Every
 * run is bounded by the answer timeout per request.
 */
final class EicarSame {

  static final String PHASE = "eicar-same";
  static final List<String> VARIANTS = List.of("eicar-same cache=true", "eicar-same cache=false");

  /** Prefix of the baseline checkout's cells ({@code --baseline}). */
  static final String BASELINE = "baseline ";

  private static final int WINDOW = Options.window(1024);

  private final Options options;
  private final Report report;

  EicarSame(Options options, Report report) {
    this.options = options;
    this.report = report;
  }

  /** The cells a run of this phase must have (target, variant), for {@link SmokeCheck}. */
  static List<List<String>> required(boolean jms) {
    List<String> targets = jms ? List.of("gateway-amqp", "gateway-jms") : List.of("gateway-amqp");
    return targets.stream()
        .flatMap(target -> VARIANTS.stream().map(variant -> List.of(target, variant)))
        .toList();
  }

  void run() throws Exception {
    GatewayRuns gateways = new GatewayRuns(options, report);
    List<GatewayRuns.Kind> kinds =
        GatewayRuns.jmsAvailable()
            ? List.of(GatewayRuns.Kind.AMQP, GatewayRuns.Kind.JMS)
            : List.of(GatewayRuns.Kind.AMQP);
    for (GatewayRuns.Kind kind : kinds) {
      for (String variant : VARIANTS) {
        String cache = variant.substring(variant.indexOf("cache=") + "cache=".length());
        List<String> args = List.of("--avgateway.pipeline.cache.enabled=" + cache);
        gateways.run(kind, variant, args, this::warmAndCount);
        // Right after this build's cell, so that both builds meet the same machine.
        if (options.baseline() != null) {
          gateways.runBaseline(kind, BASELINE + variant, args, this::warmAndCount);
        }
      }
    }
  }

  /** The JIT warm-up every new gateway JVM gets, then the counted cell. */
  private void warmAndCount(long pid, Transport driver, String target, String variant)
      throws InterruptedException {
    Harness.jitWarmup(driver, options.jitWarmup());
    report.cell(counted(pid, driver, target, variant));
  }

  /** Sends the EICAR {@code options.requests()} times, {@link #WINDOW} in flight. */
  private Cell counted(long pid, Transport driver, String target, String variant)
      throws InterruptedException {
    byte[] eicar = Payloads.eicar();
    Semaphore slots = new Semaphore(WINDOW);
    AtomicLong infected = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    Latencies latencies = new Latencies();
    CpuMeter meter = new CpuMeter(pid);
    long start = System.nanoTime();
    for (long i = 0; i < options.requests(); i++) {
      slots.acquire();
      long sent = System.nanoTime();
      driver
          .send(eicar)
          .orTimeout(Harness.ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .whenComplete((verdict, error) -> {
            if (error == null && verdict == Verdict.INFECTED) {
              infected.incrementAndGet();
              latencies.add((System.nanoTime() - sent) / 1000);
            } else {
              failed.incrementAndGet();
            }
            slots.release();
          });
    }
    Duration drain = Harness.ANSWER_TIMEOUT.plusSeconds(1);
    if (!slots.tryAcquire(WINDOW, drain.toMillis(), TimeUnit.MILLISECONDS)) {
      report.note("# %s %s: requests still unanswered after %s", target, variant, drain);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Cell(
        target,
        variant,
        eicar.length,
        WINDOW,
        infected.get(),
        options.requests() - infected.get(),
        seconds,
        latencies.percentileMillis(50),
        latencies.percentileMillis(90),
        latencies.percentileMillis(99),
        latencies.percentileMillis(100),
        meter.perRequest(infected.get()));
  }
}
