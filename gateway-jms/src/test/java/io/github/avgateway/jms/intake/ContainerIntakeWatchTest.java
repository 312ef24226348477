package io.github.avgateway.jms.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.testing.SwitchableGate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.context.Lifecycle;

/** The listener containers run only while the intake gate is up. */
class ContainerIntakeWatchTest {

  private static final Duration INTERVAL = Duration.ofMillis(10);

  /** A container that counts its starts and stops. */
  private static final class Counted implements Lifecycle {
    private volatile boolean running;
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger stops = new AtomicInteger();

    @Override
    public void start() {
      running = true;
      starts.incrementAndGet();
    }

    @Override
    public void stop() {
      running = false;
      stops.incrementAndGet();
    }

    @Override
    public boolean isRunning() {
      return running;
    }
  }

  @Test
  void containersStartAtOnceWhenTheGateIsUp() {
    SwitchableGate gate = new SwitchableGate();
    Counted requests = new Counted();
    Counted pipe = new Counted();

    ContainerIntakeWatch watch = new ContainerIntakeWatch(gate, List.of(requests, pipe), INTERVAL);
    try {
      assertThat(requests.isRunning()).isTrue();
      assertThat(pipe.isRunning()).isTrue();
    } finally {
      watch.close();
    }
  }

  @Test
  void containersStayStoppedWhileTheGateIsDownAndStartOnceItIsUp() {
    SwitchableGate gate = new SwitchableGate();
    gate.down("clamd not ready");
    Counted requests = new Counted();

    ContainerIntakeWatch watch = new ContainerIntakeWatch(gate, List.of(requests), INTERVAL);
    try {
      await().during(Duration.ofMillis(100)).until(() -> !requests.isRunning());
      assertThat(requests.starts).hasValue(0);

      gate.up();
      await().atMost(Duration.ofSeconds(5)).until(requests::isRunning);
      assertThat(requests.starts).hasValue(1);
    } finally {
      watch.close();
    }
  }

  @Test
  void aGateGoingDownStopsTheContainersOnceAndUpStartsThemOnce() {
    SwitchableGate gate = new SwitchableGate();
    Counted requests = new Counted();

    ContainerIntakeWatch watch = new ContainerIntakeWatch(gate, List.of(requests), INTERVAL);
    try {
      gate.down("history backlog full");
      await().atMost(Duration.ofSeconds(5)).until(() -> !requests.isRunning());
      await().during(Duration.ofMillis(100)).until(() -> !requests.isRunning());
      assertThat(requests.stops).hasValue(1);

      gate.up();
      await().atMost(Duration.ofSeconds(5)).until(requests::isRunning);
      await().during(Duration.ofMillis(100)).until(requests::isRunning);
      assertThat(requests.starts).hasValue(2);
      assertThat(requests.stops).hasValue(1);
    } finally {
      watch.close();
    }
  }

  @Test
  void afterCloseTheGateIsNoLongerWatched() {
    SwitchableGate gate = new SwitchableGate();
    Counted requests = new Counted();

    new ContainerIntakeWatch(gate, List.of(requests), INTERVAL).close();
    gate.down("clamd not ready");

    await().during(Duration.ofMillis(100)).until(requests::isRunning);
    assertThat(requests.stops).hasValue(0);
  }
}
