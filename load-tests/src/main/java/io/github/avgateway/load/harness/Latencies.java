package io.github.avgateway.load.harness;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Latency samples in microseconds, in an HdrHistogram of three significant digits (every percentile
 * within 0.1 % of the exact sample; LatenciesTest compares them): thread-safe appends without a
 * lock, constant memory however many requests a run sends, percentiles after the run.
 */
final class Latencies {

  private static final int SIGNIFICANT_DIGITS = 3;

  private final Histogram histogram = new ConcurrentHistogram(SIGNIFICANT_DIGITS);

  void add(long micros) {
    histogram.recordValue(Math.max(0, micros));
  }

  int count() {
    return (int) histogram.getTotalCount();
  }

  /** The {@code p}-th percentile (0–100) in milliseconds; NaN without samples. */
  double percentileMillis(double p) {
    if (histogram.getTotalCount() == 0) {
      return Double.NaN;
    }
    return histogram.getValueAtPercentile(p) / 1000.0;
  }
}
