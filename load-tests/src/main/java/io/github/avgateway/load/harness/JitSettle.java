package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * More JIT warm-up, until the compilers are nearly idle ({@code --jit-settle=PERCENT}): after the
 * fixed warm-up, 1 KiB closed-loop load in steps of {@link #STEP} until the gateway JVM's C1/C2
 * threads used less than PERCENT % of one core in the last step, or {@link #MAX} has passed. A
 * fixed warm-up compares two JVMs at the same age, not in the same state: one with more code to
 * compile (tracing on: Brave, the reporter, the sampled path) is still compiling in its measured
 * cells, and its cells then carry compilation that a longer-lived gateway no longer pays. Every
 * gateway JVM of the size cells gets the same rule, and the JIT CPU left in the cells is still
 * measured ({@code child.jit}): nothing is taken out of a cell's figures.
 */
final class JitSettle {

  /** How long each step of load runs before the compilers' share of it is read. */
  static final Duration STEP = Duration.ofSeconds(5);

  /** The most extra warm-up a JVM gets; one still compiling then is measured as it is. */
  static final Duration MAX = Duration.ofSeconds(180);

  private final Options options;
  private final Report report;

  JitSettle(Options options, Report report) {
    this.options = options;
    this.report = report;
  }

  /** Runs the steps on the gateway {@code pid} answering through {@code driver}; notes them. */
  void await(long pid, Transport driver, String target, String variant)
      throws InterruptedException {
    double limit = options.jitSettle();
    List<Double> shares = new ArrayList<>();
    long steps = MAX.dividedBy(STEP);
    boolean settled = false;
    while (!settled && shares.size() < steps) {
      Cell step =
          new LoadRun(
                  pid,
                  driver,
                  Payloads.random(1024, 2),
                  Verdict.CLEAN,
                  Duration.ZERO,
                  STEP,
                  Harness.ANSWER_TIMEOUT)
              .closedLoop(target, variant + " jit-settle", Options.window(1024));
      double share = percentOfCore(step);
      shares.add(share);
      settled = Double.isNaN(share) || share < limit; // NaN: no figure to wait on
    }
    report.note(
        "# %s %s: JIT %s after %d s more warm-up (C1/C2 %% of one core per %d s step: %s; limit %s %%)",
        target,
        variant,
        settled ? "settled" : "still compiling",
        STEP.multipliedBy(shares.size()).toSeconds(),
        STEP.toSeconds(),
        shares.stream().map(JitSettle::format).collect(Collectors.joining(" ")),
        format(limit));
  }

  /**
   * The share of one core, in percent, that the JIT threads used during {@code step}: their µs per
   * answered request times the requests answered, over the step's length; NaN when the step has no
   * JIT figure (no {@code /proc}).
   */
  static double percentOfCore(Cell step) {
    double micros = step.cpuMicros("child.jit") * step.completed();
    return micros / (step.seconds() * 1e6) * 100;
  }

  private static String format(double percent) {
    return String.format(Locale.ROOT, "%.1f", percent);
  }
}
