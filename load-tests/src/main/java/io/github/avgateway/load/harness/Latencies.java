package io.github.avgateway.load.harness;

import java.util.Arrays;

/** Latency samples in microseconds; thread-safe appends, percentiles after the run. */
final class Latencies {

  private long[] samples = new long[1 << 16];
  private int count;

  synchronized void add(long micros) {
    if (count == samples.length) {
      samples = Arrays.copyOf(samples, count * 2);
    }
    samples[count++] = micros;
  }

  synchronized int count() {
    return count;
  }

  /** The {@code p}-th percentile (0–100) in milliseconds, nearest rank; NaN without samples. */
  synchronized double percentileMillis(double p) {
    if (count == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(samples, count);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * count);
    return sorted[Math.max(0, Math.min(count - 1, rank - 1))] / 1000.0;
  }
}
