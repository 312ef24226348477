package io.github.avgateway.load.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one run says about one gateway (history on) at one payload size, from cells of the same run:
 * its JVM's CPU per request split by thread group, clamd's CPU per scan in the same cell,
 * throughput against the "shared" bound of the same run's clamd-alone and echo cells, and at half
 * load its p99 next to the broker echo's p99 at the same offered rate. Figures a run did not
 * measure are NaN. CPU figures are µs per answered request.
 *
 * @param jvm the gateway JVM's CPU
 * @param broker the embedded broker's threads (JMS), part of {@code jvm}
 * @param solr the embedded Solr's threads, part of {@code jvm}
 * @param indexer the history indexer's threads, part of {@code jvm} and of {@link #own()}
 * @param jit the JIT compilers' threads, part of {@code jvm} and of {@link #own()}
 * @param gc the garbage collector's threads, part of {@code jvm} and of {@link #own()}
 * @param clamd clamd's CPU per request (one scan each) in the same cell
 * @param rate the gateway's closed-loop maximum, requests/s
 * @param clamdRate clamd alone, requests/s
 * @param echoRate the broker echo, requests/s
 * @param halfRate the offered rate of the half-load cells, requests/s
 * @param p99Half the gateway's p99 at {@code halfRate}, ms
 * @param p99Echo the echo's p99 at {@code halfRate}, ms
 */
record GatewayFigures(
    Via via,
    int size,
    double jvm,
    double broker,
    double solr,
    double indexer,
    double jit,
    double gc,
    double clamd,
    double rate,
    double clamdRate,
    double echoRate,
    double halfRate,
    double p99Half,
    double p99Echo) {

  static final double MIB = 1024.0 * 1024.0;

  /** A transport with the echo cells that are its broker's ceiling. */
  enum Via {
    AMQP("amqp", "rabbitmq-echo", "echo quorum"),
    JMS("jms", "artemis-echo", "echo persistent");

    final String name;
    final String echoTarget;
    final String echoVariant;

    Via(String name, String echoTarget, String echoVariant) {
      this.name = name;
      this.echoTarget = echoTarget;
      this.echoVariant = echoVariant;
    }

    String gateway() {
      return "gateway-" + name;
    }
  }

  static final String HISTORY_ON = "history-on";

  /** The figures of {@code via} at {@code size}; empty when the run has no history-on cell. */
  static Optional<GatewayFigures> of(Report report, Via via, int size) {
    Optional<Cell> on = report.find(via.gateway(), HISTORY_ON, size);
    if (on.isEmpty()) {
      return Optional.empty();
    }
    Cell gw = on.get();
    Optional<Cell> half = report.halfLoad(via.gateway(), HISTORY_ON, size);
    Optional<Cell> echoHalf =
        half.flatMap(h ->
            report.find(
                via.echoTarget,
                via.echoVariant + h.variant().substring(HISTORY_ON.length()),
                size));
    return Optional.of(
        new GatewayFigures(
            via,
            size,
            gw.cpuMicros("child"),
            gw.cpuMicros("child.broker"),
            gw.cpuMicros("child.solr"),
            gw.cpuMicros("child.indexer"),
            gw.cpuMicros("child.jit"),
            gw.cpuMicros("child.gc"),
            gw.cpuMicros("clamd"),
            gw.perSecond(),
            rate(report.find("clamd", "raw 8 sessions", size)),
            rate(report.find(via.echoTarget, via.echoVariant, size)),
            half.map(Cell::offeredRate).orElse(Double.NaN),
            half.map(Cell::p99).orElse(Double.NaN),
            echoHalf.map(Cell::p99).orElse(Double.NaN)));
  }

  /** The gateway's own CPU: its JVM's less the embedded broker's and Solr's threads. */
  double own() {
    return jvm - broker - solr;
  }

  /** {@link #own()} in ms per MiB of payload. */
  double ownPerMiB() {
    return own() / 1000 * MIB / size;
  }

  double jvmPerMiB() {
    return jvm / 1000 * MIB / size;
  }

  double ownOverClamd() {
    return own() / clamd;
  }

  /** 1/(1/clamd + 1/echo): both ceilings sharing the cores. */
  double shared() {
    return 1 / (1 / clamdRate + 1 / echoRate);
  }

  double ofShared() {
    return rate / shared();
  }

  double p99OverEcho() {
    return p99Half / p99Echo;
  }

  /** Whether the figures that make every target were measured; the names of those that were not. */
  List<String> missing() {
    List<String> missing = new ArrayList<>();
    String[] names = {"gateway JVM CPU", "broker threads' CPU", "Solr threads' CPU", "clamd CPU"};
    double[] values = {jvm, broker, solr, clamd};
    for (int i = 0; i < names.length; i++) {
      if (Double.isNaN(values[i])) {
        missing.add(names[i]);
      }
    }
    if (Double.isNaN(shared())) {
      missing.add("shared bound (clamd alone and echo cells)");
    }
    if (size == 1024 && Double.isNaN(p99OverEcho())) {
      missing.add("p99 at half load and the echo's p99 at the same rate");
    }
    return missing;
  }

  private static double rate(Optional<Cell> cell) {
    return cell.map(Cell::perSecond).orElse(Double.NaN);
  }
}
