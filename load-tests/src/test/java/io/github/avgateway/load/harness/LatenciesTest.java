package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatenciesTest {

  @Test
  void percentilesAreNearestRankInMilliseconds() {
    Latencies latencies = new Latencies();
    for (int i = 1; i <= 100_000; i++) {
      latencies.add(i); // 1 µs .. 100 ms
    }
    assertThat(latencies.count()).isEqualTo(100_000);
    assertThat(latencies.percentileMillis(50)).isEqualTo(50.0);
    assertThat(latencies.percentileMillis(99)).isEqualTo(99.0);
    assertThat(latencies.percentileMillis(100)).isEqualTo(100.0);
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
}
