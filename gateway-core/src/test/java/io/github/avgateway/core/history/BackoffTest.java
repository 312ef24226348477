package io.github.avgateway.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private static final Duration FIRST = Duration.ofMillis(100);
  private static final Duration MAX = Duration.ofMillis(500);

  @Test
  void theCapDoublesUpToTheMaximumAndStartsOverAfterASuccess() {
    Backoff backoff = new Backoff(FIRST, MAX, () -> 1.0);
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(100));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(400));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(500));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(500));
    backoff.succeeded();
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void eachWaitIsTheDrawTimesItsCap() {
    Backoff backoff = new Backoff(FIRST, MAX, () -> 0.25);
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(25));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(50));
    assertThat(new Backoff(FIRST, MAX, () -> 0.0).failed()).isZero();
  }

  @Test
  void indexersThatFailedTogetherDoNotRetryTogether() {
    Set<Duration> thirdWaits = new HashSet<>();
    for (int indexer = 0; indexer < 20; indexer++) {
      SplittableRandom random = new SplittableRandom(indexer);
      Backoff backoff = new Backoff(FIRST, MAX, random::nextDouble);
      backoff.failed();
      backoff.failed();
      Duration third = backoff.failed();
      assertThat(third).isBetween(Duration.ZERO, Duration.ofMillis(400));
      thirdWaits.add(third);
    }
    assertThat(thirdWaits).as("20 indexers, 20 different third waits").hasSize(20);
  }

  @Test
  void theDefaultJitterStaysWithinTheCaps() {
    Backoff backoff = new Backoff(FIRST, MAX);
    for (int attempt = 0; attempt < 50; attempt++) {
      assertThat(backoff.failed()).isBetween(Duration.ZERO, MAX);
    }
  }

  @Test
  void refusesABoundThatCannotWork() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
