package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The one-run perf harness: in one run on one machine, side by side, (a) clamd alone, (b) each
 * broker alone (request/reply echo with the gateway's acknowledgement discipline), (c) the gateway
 * over AMQP and over JMS with history on and off, for each payload size; then the ratios
 * gateway/ceiling. Raw results go to {@code perf-notes/raw/harness-TIMESTAMP.txt} ({@code --smoke}:
 * the run's work directory). Every phase is bounded in time; child JVMs are the harness's own and
 * are stopped by it. See {@code load-tests/perf-harness.sh} for the options.
 */
public final class Harness {

  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);
  static final int CLAMD_SESSIONS = 8;

  private Harness() {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    String stamp = options.stamp();
    Path raw = options.rawFile();
    Report report = new Report(raw);
    report.note("# av-gateway perf harness, %s UTC", stamp);
    report.note("# args: %s", String.join(" ", args));
    report.note("# variant: %s", options.variant());
    report.machine();
    report.timings(options, "JVM");
    long started = System.nanoTime();
    Phases phases = new Phases(options, report);
    if (options.phases().contains("soak")) {
      new Soak(options, report).run();
    } else {
      phases.runAll();
      if (!options.phases().contains(EicarSame.PHASE)) {
        new Summary(options, report).print();
      }
    }
    report.note(
        "# finished in %d s, load average at end: %s",
        Duration.ofNanos(System.nanoTime() - started).toSeconds(), Report.loadAverage());
    report.note("# raw results: %s", raw);
    report.note("# variant: %s", options.variant());
    System.exit(options.smoke() ? SmokeCheck.verdict(report, options.smokeCells()) : 0);
  }

  /** A closed-loop run of every size against one transport. */
  static void sizes(
      long childPid,
      Options options,
      Report report,
      Transport transport,
      String target,
      String variant,
      List<Integer> sizes,
      WindowRule rule)
      throws InterruptedException {
    for (int size : sizes) {
      LoadRun run =
          new LoadRun(
              childPid,
              transport,
              Payloads.random(size, size),
              Verdict.CLEAN,
              options.warmup(),
              options.measure(),
              ANSWER_TIMEOUT);
      report.cell(run.closedLoop(target, variant, rule.window(size)));
    }
  }

  /**
   * Unmeasured 1 KiB load for {@code duration}: a new JVM compiles its hot paths in the first tens
   * of seconds (C2 used more CPU than the gateway's own threads in the first minute here).
   */
  static void jitWarmup(Transport transport, Duration duration) throws InterruptedException {
    new LoadRun(
            0,
            transport,
            Payloads.random(1024, 2),
            Verdict.CLEAN,
            duration,
            Duration.ZERO,
            ANSWER_TIMEOUT)
        .closedLoop("warm-up", "", Options.window(1024));
  }

  /** How many requests a closed loop keeps in flight for a payload size. */
  interface WindowRule {
    int window(int size);
  }
}
