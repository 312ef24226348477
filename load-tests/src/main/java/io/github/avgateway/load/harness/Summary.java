package io.github.avgateway.load.harness;

import io.github.avgateway.load.Payloads;
import java.util.Optional;

/** The ratios gateway/ceiling of one run, and the targets next to them. */
final class Summary {

  private final Options options;
  private final Report report;

  Summary(Options options, Report report) {
    this.options = options;
    this.report = report;
  }

  void print() {
    report.note("");
    report.note("# Ratios (same run). ceiling = min(clamd alone, broker echo) in requests/s;");
    report.note(
        "# shared = 1/(1/clamd + 1/echo): both ceilings at once on the same cores, the bound when");
    report.note("# each was measured with the whole machine to itself and the work is CPU-bound.");
    report.note(
        "%-6s %8s %10s %10s %10s %8s %8s %10s %8s %9s %12s",
        "via",
        "size",
        "clamd r/s",
        "echo r/s",
        "gw-on r/s",
        "on/ceil",
        "on/shrd",
        "gw-off r/s",
        "off/ceil",
        "hist cost",
        "on MB/clamd");
    line("amqp", "rabbitmq-echo", "echo quorum");
    line("jms", "artemis-echo", "echo persistent");
    report.note(
        "# targets: 1 KiB on/ceil >= 60%%; >= 1 MiB on MB/clamd >= 90%%; history cost < 10%%;"
            + " p99 <= 20 ms at half the maximum (the '@N/s' rows); cold start <= 5 s");
    new FiguresTable(options, report).print();
  }

  private void line(String via, String echoTarget, String echoVariant) {
    String gateway = "gateway-" + via;
    for (int size : options.sizes()) {
      Optional<Cell> clamd = report.find("clamd", "raw 8 sessions", size);
      Optional<Cell> echo = report.find(echoTarget, echoVariant, size);
      Optional<Cell> on = report.find(gateway, "history-on", size);
      Optional<Cell> off = report.find(gateway, "history-off", size);
      if (on.isEmpty() && off.isEmpty()) {
        continue;
      }
      double ceiling =
          Math.min(rate(clamd), echo.isPresent() ? rate(echo) : Double.POSITIVE_INFINITY);
      double shared = 1 / (1 / rate(clamd) + (echo.isPresent() ? 1 / rate(echo) : 0));
      report.note(
          "%-6s %8s %10.1f %10.1f %10.1f %7.0f%% %7.0f%% %10.1f %7.0f%% %8.0f%% %11.0f%%",
          via,
          Payloads.label(size).replace(" ", ""),
          rate(clamd),
          rate(echo),
          rate(on),
          100 * rate(on) / ceiling,
          100 * rate(on) / shared,
          rate(off),
          100 * rate(off) / ceiling,
          100 * (1 - rate(on) / rate(off)),
          100 * rate(on) / rate(clamd));
    }
  }

  private static double rate(Optional<Cell> cell) {
    return cell.map(Cell::perSecond).orElse(Double.NaN);
  }
}
