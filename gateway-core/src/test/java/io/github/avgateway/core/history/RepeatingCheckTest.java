package io.github.avgateway.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RepeatingCheckTest {

  @Test
  void runsTheCheckRepeatedlyFromStartUntilStop() {
    AtomicInteger checks = new AtomicInteger();
    RepeatingCheck repeating =
        new RepeatingCheck("test-check", checks::incrementAndGet, Duration.ofMillis(10));
    assertThat(repeating.running()).isFalse();

    repeating.start();
    repeating.start();
    await().atMost(Duration.ofSeconds(5)).until(() -> checks.get() >= 3);
    repeating.stop();

    assertThat(repeating.running()).isFalse();
    int stopped = checks.get();
    await()
        .during(Duration.ofMillis(100))
        .atMost(Duration.ofSeconds(1))
        .until(() -> checks.get() <= stopped + 1);
  }
}
