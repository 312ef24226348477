package io.github.avgateway.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void doublesUpToTheCapAndStartsOverAfterASuccess() {
    Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(100));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(400));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(500));
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(500));
    backoff.succeeded();
    assertThat(backoff.failed()).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void refusesABoundThatCannotWork() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
