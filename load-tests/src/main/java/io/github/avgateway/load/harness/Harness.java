package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
  private static final Duration LARGE_WARMUP_MAX = Duration.ofSeconds(10);
  static final int CLAMD_SESSIONS = 8;

  private Harness() {}

  public static void main(String[] args) throws Exception {
    if (HarnessCommand.helpAsked(args, System.out)) {
      return;
    }
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
    jitWarmup(transport, duration, List.of(1024));
  }

  /**
   * Unmeasured load for {@code duration} in the steps of {@link #warmupPlan}: 1 KiB, then each
   * larger size of the run, so that its cells measure code compiled for their size too.
   */
  static void jitWarmup(Transport transport, Duration duration, List<Integer> sizes)
      throws InterruptedException {
    for (WarmupStep step : warmupPlan(duration, sizes)) {
      new LoadRun(
              0,
              transport,
              Payloads.random(step.size(), 2),
              Verdict.CLEAN,
              step.duration(),
              Duration.ZERO,
              ANSWER_TIMEOUT)
          .closedLoop("warm-up", "", Options.window(step.size()));
    }
  }

  /** One size of a JIT warm-up and how long it runs. */
  record WarmupStep(int size, Duration duration) {}

  /**
   * How a JIT warm-up of {@code total} is spent: the paths of large payloads (bodies of many broker
   * frames, chunk loops of many rounds, large-message streams) are compiled only once such payloads
   * come, so without a share of the warm-up each size's first cell paid that compilation (round 13:
   * 0.1–0.3 ms per MiB of JIT in AMQP's 1 MiB cells, 1.3–3.4 in JMS's). Each size above 1 KiB gets
   * an equal share of a third of {@code total}, at most 10 s; 1 KiB gets the rest, first.
   */
  static List<WarmupStep> warmupPlan(Duration total, List<Integer> sizes) {
    List<Integer> larger = sizes.stream().filter(size -> size > 1024).distinct().toList();
    List<WarmupStep> plan = new ArrayList<>();
    Duration each = larger.isEmpty() ? Duration.ZERO : total.dividedBy(3).dividedBy(larger.size());
    if (each.compareTo(LARGE_WARMUP_MAX) > 0) {
      each = LARGE_WARMUP_MAX;
    }
    plan.add(new WarmupStep(1024, total.minus(each.multipliedBy(larger.size()))));
    for (int size : larger) {
      plan.add(new WarmupStep(size, each));
    }
    return List.copyOf(plan);
  }

  /** How many requests a closed loop keeps in flight for a payload size. */
  interface WindowRule {
    int window(int size);
  }
}
