package io.github.avgateway.load.harness;

import io.github.avgateway.load.Payloads;
import java.util.Locale;

/**
 * The outcome of one measured load run.
 *
 * @param target what was measured, e.g. {@code clamd}, {@code rabbitmq-echo}, {@code gateway-amqp}
 * @param variant e.g. {@code history-on}, {@code closed-loop}, {@code open 800/s}
 * @param size payload bytes
 * @param window requests in flight (closed loop) or 0 (open loop)
 * @param completed requests answered within the measurement window
 * @param failed requests that got no answer, or a wrong verdict
 * @param seconds length of the measurement window
 * @param cpu CPU µs per answered request of each process during the window (see {@link CpuMeter})
 */
record Cell(
    String target,
    String variant,
    int size,
    int window,
    long completed,
    long failed,
    double seconds,
    double p50,
    double p90,
    double p99,
    double max,
    String cpu) {

  double perSecond() {
    return completed / seconds;
  }

  /**
   * One figure of {@link #cpu}: µs per answered request of {@code key} (e.g. {@code clamd}, {@code
   * child}, {@code child.broker}), or NaN when the cell has none.
   */
  double cpuMicros(String key) {
    for (String part : cpu.split(" ")) {
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).equals(key)) {
        try {
          return Double.parseDouble(part.substring(eq + 1));
        } catch (NumberFormatException e) {
          return Double.NaN;
        }
      }
    }
    return Double.NaN;
  }

  /** The offered rate of an open-loop cell, from its variant's {@code @N/s}; NaN for others. */
  double offeredRate() {
    int at = variant.lastIndexOf(" @");
    if (at < 0 || !variant.endsWith("/s")) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(variant.substring(at + 2, variant.length() - 2));
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  double megabytesPerSecond() {
    return perSecond() * size / (1024.0 * 1024.0);
  }

  static String header() {
    return String.format(
        Locale.ROOT,
        "%-22s %-24s %8s %6s %9s %7s %10s %9s %8s %8s %8s %8s  %s",
        "target",
        "variant",
        "size",
        "window",
        "completed",
        "failed",
        "req/s",
        "MiB/s",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "CPU us/request");
  }

  String line() {
    return String.format(
        Locale.ROOT,
        "%-22s %-24s %8s %6d %9d %7d %10.1f %9.1f %8.2f %8.2f %8.2f %8.2f  %s",
        target,
        variant,
        Payloads.label(size).replace(" ", ""),
        window,
        completed,
        failed,
        perSecond(),
        megabytesPerSecond(),
        p50,
        p90,
        p99,
        max,
        cpu);
  }
}
