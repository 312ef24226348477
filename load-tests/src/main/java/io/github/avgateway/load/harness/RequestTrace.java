package io.github.avgateway.load.harness;

import io.github.avgateway.core.wire.ScanResultJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Each traced request of a half-load cell taken apart at the moment the gateway reached its verdict
 * ({@code --trace}): the driver's send, the reply's {@code scannedAt}, the driver's receipt of the
 * reply, all three on the machine's wall clock in microseconds. So a request's time splits into
 * "send → scanned" (the broker's queue, the consumer's prefetch, the batch's gathering, the scans
 * before it in its batch, its own scan) and "scanned → reply received" (the scans after it in its
 * batch, the reply's publish and its way through the broker to the driver).
 */
final class RequestTrace {

  private final long fromNanos;
  private final long untilNanos;
  private final List<long[]> samples = new ArrayList<>();
  private final List<Reply> unread = new ArrayList<>();
  private long unparsed;

  /** Keeps the requests answered between {@code fromNanos} and {@code untilNanos} (nanoTime). */
  RequestTrace(long fromNanos, long untilNanos) {
    this.fromNanos = fromNanos;
    this.untilNanos = untilNanos;
  }

  /** The wall clock now, in microseconds since the epoch. */
  static long wallMicros() {
    return micros(Instant.now());
  }

  private static long micros(Instant at) {
    return at.getEpochSecond() * 1_000_000 + at.getNano() / 1000;
  }

  /**
   * Records one reply received now, to a request sent at {@code sentMicros} (wall clock). The body
   * is read only in {@link #summary}: decoding it here, on the driver's reply consumer, cost the
   * driver 84 µs per request and made the tail it was to measure.
   */
  void replied(long sentMicros, byte[] body) {
    long received = wallMicros();
    long now = System.nanoTime();
    if (now >= fromNanos && now <= untilNanos) {
      synchronized (this) {
        unread.add(new Reply(sentMicros, received, body));
      }
    }
  }

  /** One request's three moments, wall clock in microseconds; {@code scanned} -1 when unknown. */
  synchronized void add(long sent, long scanned, long received) {
    if (scanned < 0) {
      unparsed++;
    } else {
      samples.add(new long[] {sent, scanned, received});
    }
  }

  /** The reply body's {@code scannedAt} in microseconds since the epoch; -1 when it has none. */
  static long scannedAtMicros(byte[] body) {
    try {
      return micros(ScanResultJson.decode(body).scannedAt());
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /** The parts' percentiles, and the mean parts of the slowest 1 % of requests, as report lines. */
  synchronized List<String> summary(String cell) {
    unread.forEach(r -> add(r.sent(), scannedAtMicros(r.body()), r.received()));
    unread.clear();
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            "# trace %s: %d replies in the window (%d without scannedAt); ms, send and receipt at"
                + " the driver, scannedAt from the reply",
            cell,
            samples.size(),
            unparsed));
    if (samples.isEmpty()) {
      return lines;
    }
    Latencies before = new Latencies();
    Latencies after = new Latencies();
    Latencies whole = new Latencies();
    for (long[] s : samples) {
      before.add(s[1] - s[0]);
      after.add(s[2] - s[1]);
      whole.add(s[2] - s[0]);
    }
    lines.add("#   part                        p50      p90      p99      max");
    lines.add(row("send -> scanned", before));
    lines.add(row("scanned -> reply received", after));
    lines.add(row("whole (receipt - send)", whole));
    List<long[]> slowest = new ArrayList<>(samples);
    slowest.sort(Comparator.comparingLong((long[] s) -> s[2] - s[0]).reversed());
    slowest = slowest.subList(0, Math.max(1, slowest.size() / 100));
    double beforeMean = slowest.stream().mapToLong(s -> s[1] - s[0]).average().orElseThrow();
    double afterMean = slowest.stream().mapToLong(s -> s[2] - s[1]).average().orElseThrow();
    lines.add(
        String.format(
            Locale.ROOT,
            "#   the slowest 1 %% (%d): mean send -> scanned %.1f, scanned -> reply received %.1f",
            slowest.size(),
            beforeMean / 1000,
            afterMean / 1000));
    return lines;
  }

  private static String row(String part, Latencies l) {
    return String.format(
        Locale.ROOT,
        "#   %-25s %8.1f %8.1f %8.1f %8.1f",
        part,
        l.percentileMillis(50),
        l.percentileMillis(90),
        l.percentileMillis(99),
        l.percentileMillis(100));
  }

  private record Reply(long sent, long received, byte[] body) {}
}
