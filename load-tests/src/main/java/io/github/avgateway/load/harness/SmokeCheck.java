package io.github.avgateway.load.harness;

import io.github.avgateway.load.harness.GatewayFigures.Via;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a {@code --smoke} run must show for the harness to count as working: every cell that the
 * ratios are made of was measured at 1 KiB, and every cell answered requests with the expected
 * verdict and none failed; and the raw results hold the gateway figures and targets tables ({@link
 * FiguresTable}) with every figure of both transports at 1 KiB measured. A smoke run measures
 * nothing worth quoting; it only keeps the perf tooling from rotting unnoticed (scripts/smoke.sh
 * runs it in the test suite).
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
    if (required.equals(REQUIRED)) {
      problems.addAll(figureProblems(report));
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

  /**
   * What the gateway figures of a default run lack: a table not printed to the raw results, a
   * transport without figures at 1 KiB, a figure not measured.
   */
  static List<String> figureProblems(Report report) {
    List<String> problems = new ArrayList<>();
    List<String> raw = rawLines(report);
    for (String heading : List.of(FiguresTable.HEADING, FiguresTable.TARGETS_HEADING)) {
      if (raw.stream().noneMatch(line -> line.startsWith(heading))) {
        problems.add("the raw results have no '" + heading + "' table");
      }
    }
    for (Via via : Via.values()) {
      Optional<GatewayFigures> figures = GatewayFigures.of(report, via, 1024);
      if (figures.isEmpty()) {
        problems.add("no gateway figures for " + via.name + " at 1 KiB");
      } else {
        figures.get().missing().forEach(m -> problems.add(via.name + " 1 KiB: no " + m));
      }
    }
    return problems;
  }

  private static List<String> rawLines(Report report) {
    try {
      return Files.readAllLines(report.file());
    } catch (IOException e) {
      return List.of();
    }
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
