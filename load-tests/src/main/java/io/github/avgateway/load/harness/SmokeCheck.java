package io.github.avgateway.load.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a {@code --smoke} run must show for the harness to count as working: every cell that the
 * ratios are made of was measured at 1 KiB, and every cell answered requests with the expected
 * verdict and none failed. A smoke run measures nothing worth quoting; it only keeps the perf
 * tooling from rotting unnoticed (scripts/smoke.sh runs it in the test suite).
 */
final class SmokeCheck {

  /** target, variant: the cells {@link Summary} reads for its ratios. */
  static final List<List<String>> REQUIRED =
      List.of(
          List.of("clamd", "raw 8 sessions"),
          List.of("rabbitmq-echo", "echo quorum"),
          List.of("artemis-echo", "echo persistent"),
          List.of("gateway-amqp", "history-on"),
          List.of("gateway-amqp", "history-off"),
          List.of("gateway-jms", "history-on"),
          List.of("gateway-jms", "history-off"));

  private SmokeCheck() {}

  /** What is wrong with a default smoke run, one line each; empty when the harness worked. */
  static List<String> problems(Report report) {
    return problems(report, REQUIRED);
  }

  /**
   * What is wrong with a run that must have the {@code required} cells (target, variant; at 1 KiB,
   * or at any size for a fixed-payload workload such as {@code eicar-same}).
   */
  static List<String> problems(Report report, List<List<String>> required) {
    List<String> problems = new ArrayList<>();
    for (List<String> cell : required) {
      if (missing(report, cell.get(0), cell.get(1))) {
        String what =
            cell.get(1).startsWith(EicarSame.PHASE) ? "no cell for " : "no 1 KiB cell for ";
        problems.add(what + cell.get(0) + " " + cell.get(1));
      }
    }
    for (Cell cell : report.cells()) {
      if (cell.completed() == 0 || cell.failed() > 0) {
        problems.add(
            String.format(
                Locale.ROOT,
                "%s %s: %d answered, %d failed",
                cell.target(),
                cell.variant(),
                cell.completed(),
                cell.failed()));
      }
    }
    return problems;
  }

  private static boolean missing(Report report, String target, String variant) {
    return report.cells().stream()
        .noneMatch(c ->
            c.target().equals(target)
                && c.variant().equals(variant)
                && (c.size() == 1024 || variant.startsWith(EicarSame.PHASE)));
  }

  /** Prints the verdict of a default smoke run and returns its exit status (0 when it worked). */
  static int verdict(Report report) {
    return verdict(report, REQUIRED);
  }

  /** Prints the verdict of a smoke run that must have {@code required}; 0 when it worked. */
  static int verdict(Report report, List<List<String>> required) {
    List<String> problems = problems(report, required);
    if (problems.isEmpty()) {
      report.note("# smoke: every cell answered, none failed");
      return 0;
    }
    problems.forEach(p -> report.note("# smoke FAILED: %s", p));
    return 1;
  }
}
