package io.github.avgateway.load.harness;

import io.github.avgateway.load.Payloads;
import io.github.avgateway.load.harness.GatewayFigures.Via;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints the gateway's own cost for every transport and size of a run ({@link GatewayFigures}),
 * then the targets with pass or miss computed from those figures ({@link Targets}).
 */
final class FiguresTable {

  static final String HEADING = "# Gateway figures";
  static final String TARGETS_HEADING = "# Gateway targets";

  private final Options options;
  private final Report report;

  FiguresTable(Options options, Report report) {
    this.options = options;
    this.report = report;
  }

  /** The figures of every transport and size that has a history-on cell. */
  List<GatewayFigures> figures() {
    List<GatewayFigures> figures = new ArrayList<>();
    for (Via via : Via.values()) {
      for (int size : options.sizes()) {
        GatewayFigures.of(report, via, size).ifPresent(figures::add);
      }
    }
    return figures;
  }

  void print() {
    List<GatewayFigures> figures = figures();
    report.note("");
    report.note(
        "%s (variant %s): the history-on cells of this run; CPU per answered request in the same"
            + " cell, from /proc",
        HEADING, options.variant());
    report.note(
        "# own = gateway JVM - embedded broker threads - embedded Solr threads; threads by"
            + " /proc/PID/task/*/comm:");
    report.note(
        "#   broker = Thread-N (activemq-...), activemq-*; solr = solr-history-*,"
            + " commitScheduler, searcherExecutor, Lucene Merge, h2sc-*, httpShardExecutor, ...;");
    report.note(
        "#   jit (C1/C2), gc (the collector's threads), indexer (the history queue's consumer)"
            + " and tracing (the span reporter's threads) are part of own; threads that ended unsampled are in the JVM total only"
            + " (child.ended in the cell)");
    report.note(
        "# shared = 1/(1/clamd alone + 1/echo) of this run; p99 half = open loop at half the"
            + " maximum, echo p99 = the same transport's echo, open loop at the same rate");
    report.note(
        "%-5s %6s %8s %8s %8s %8s %8s %8s %8s %8s %7s %7s %7s %9s %9s %7s %8s %8s %8s %8s",
        "via",
        "size",
        "jvm us",
        "jvm ms/M",
        "broker",
        "solr",
        "own us",
        "own ms/M",
        "clamd us",
        "own/clmd",
        "jit",
        "gc",
        "indexer",
        "req/s",
        "shared/s",
        "of shrd",
        "half r/s",
        "p99 half",
        "echo p99",
        "p99/echo");
    for (GatewayFigures f : figures) {
      report.note(
          "%-5s %6s %8s %8s %8s %8s %8s %8s %8s %8s %7s %7s %7s %9s %9s %7s %8s %8s %8s %8s",
          f.via().name,
          Payloads.label(f.size()).replace(" ", ""),
          num(f.jvm(), "%.0f"),
          num(f.jvmPerMiB(), "%.2f"),
          num(f.broker(), "%.0f"),
          num(f.solr(), "%.0f"),
          num(f.own(), "%.0f"),
          num(f.ownPerMiB(), "%.2f"),
          num(f.clamd(), "%.0f"),
          num(f.ownOverClamd(), "%.2f"),
          num(f.jit(), "%.0f"),
          num(f.gc(), "%.0f"),
          num(f.indexer(), "%.0f"),
          num(f.rate(), "%.1f"),
          num(f.shared(), "%.1f"),
          num(100 * f.ofShared(), "%.0f%%"),
          num(f.halfRate(), "%.0f"),
          num(f.p99Half(), "%.1f"),
          num(f.p99Echo(), "%.1f"),
          num(f.p99OverEcho(), "%.2f"));
    }
    printTargets(figures);
  }

  private void printTargets(List<GatewayFigures> figures) {
    report.note(
        "%s (variant %s), pass or miss computed from the rows above:",
        TARGETS_HEADING, options.variant());
    report.note("%-42s %-5s %6s %8s %9s  %s", "target", "via", "size", "value", "limit", "result");
    for (Targets.Check c : Targets.checks(figures)) {
      boolean percent = c.name().equals(Targets.OF_SHARED);
      String format = percent ? "%.0f%%" : "%.2f";
      double scale = percent ? 100 : 1;
      report.note(
          "%-42s %-5s %6s %8s %9s  %s",
          c.name(),
          c.via().name,
          Payloads.label(c.size()).replace(" ", ""),
          num(scale * c.value(), format),
          (c.atMost() ? "<= " : ">= ") + num(scale * c.limit(), format),
          c.result().name().toLowerCase(Locale.ROOT).replace("na", "n/a"));
    }
  }

  private static String num(double value, String format) {
    return Double.isNaN(value) || Double.isInfinite(value)
        ? "n/a"
        : String.format(Locale.ROOT, format, value);
  }
}
