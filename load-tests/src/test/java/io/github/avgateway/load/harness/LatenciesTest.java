package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LatenciesTest {

  private static final double[] PERCENTILES = {50, 90, 99, 99.9, 100};

  @Test
  void percentilesAreWithinATenthOfAPercentOfTheExactOnes() {
    Latencies latencies = new Latencies();
    long[] samples = new long[100_000];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = i + 1; // 1 µs .. 100 ms
      latencies.add(samples[i]);
    }
    assertThat(latencies.count()).isEqualTo(100_000);
    assertThat(latencies.percentileMillis(50)).isCloseTo(50.0, within(0.05));
    assertThat(latencies.percentileMillis(99)).isCloseTo(99.0, within(0.099));
    assertThat(latencies.percentileMillis(100)).isCloseTo(100.0, within(0.1));
    agreesWithNearestRank(latencies, samples);
  }

  /** Latencies as a run sees them: most around a millisecond, a long tail up to seconds. */
  @Test
  void aLongTailedRunGivesTheNumbersOfTheExactNearestRank() throws Exception {
    Latencies latencies = new Latencies();
    SplittableRandom random = new SplittableRandom(41);
    long[] samples = new long[200_000];
    Thread[] writers = new Thread[4];
    for (int w = 0; w < writers.length; w++) {
      int from = w * samples.length / writers.length;
      int to = (w + 1) * samples.length / writers.length;
      for (int i = from; i < to; i++) {
        samples[i] = Math.round(Math.exp(6.5 + 1.2 * random.nextGaussian()));
      }
      writers[w] =
          Thread.ofPlatform()
              .start(() -> IntStream.range(from, to).forEach(i -> latencies.add(samples[i])));
    }
    for (Thread writer : writers) {
      writer.join();
    }
    assertThat(latencies.count()).isEqualTo(samples.length);
    agreesWithNearestRank(latencies, samples);
  }

  @Test
  void noSamplesGiveNaN() {
    assertThat(new Latencies().percentileMillis(99)).isNaN();
  }

  @Test
  void windowsKeepEnoughInFlightAndBoundTheBytes() {
    assertThat(Options.window(1024)).isEqualTo(128);
    assertThat(Options.window(10 * 1024 * 1024) * 10L * 1024 * 1024)
        .isLessThanOrEqualTo(128L * 1024 * 1024);
  }

  /**
   * Compares with the harness' former computation: sorted samples, nearest rank. The rank is
   * computed in decimal: the former {@code ceil(p / 100.0 * n)} in doubles took p99.9 of 200,000
   * samples as rank 199,801 (0.999 * 200000 is a hair above 199,800), one sample past the nearest
   * rank that HdrHistogram returns.
   */
  private static void agreesWithNearestRank(Latencies latencies, long[] samples) {
    long[] sorted = samples.clone();
    Arrays.sort(sorted);
    for (double p : PERCENTILES) {
      int rank =
          new BigDecimal(String.valueOf(p))
              .multiply(BigDecimal.valueOf(sorted.length))
              .divide(BigDecimal.valueOf(100), 0, RoundingMode.CEILING)
              .intValueExact();
      double exact = sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1000.0;
      assertThat(latencies.percentileMillis(p))
          .as("p%s", p)
          .isCloseTo(exact, within(Math.max(0.001, exact / 1000)));
    }
  }
}
