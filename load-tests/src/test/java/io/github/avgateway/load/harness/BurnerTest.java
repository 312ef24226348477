package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BurnerTest {

  @Test
  void itsThreadsSpendCpuUntilClosed() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    List<Thread> threads;
    try (Burner burner = Burner.start(1.5)) {
      threads = burner.threads();
      assertThat(threads).as("whole threads of equal shares").hasSize(2);
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> {
            for (Thread thread : threads) {
              assertThat(mx.getThreadCpuTime(thread.threadId())).isPositive();
            }
          });
    }
    assertThat(threads).allSatisfy(thread -> assertThat(thread.isAlive()).isFalse());
  }

  @Test
  void aShareOutsideTheMachineIsRefused() {
    int cores = Runtime.getRuntime().availableProcessors();
    assertThatThrownBy(() -> Burner.start(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Burner.start(cores + 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
