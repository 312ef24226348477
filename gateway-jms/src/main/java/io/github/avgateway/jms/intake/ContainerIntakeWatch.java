package io.github.avgateway.jms.intake;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.Lifecycle;

/**
 * The intake gate for listener containers, which do not ask it themselves: asks the gate every
 * {@code pause-poll-interval}, stops the containers when it went down (their consumers take nothing
 * more) and starts them when it is up again. A batch already running when the gate closes is held
 * open by its {@link JmsIntakeHold}, as with {@link BatchConsumer}. One thread, of its own.
 */
final class ContainerIntakeWatch implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ContainerIntakeWatch.class);

  private final IntakeGate gate;
  private final List<? extends Lifecycle> containers;
  private final ScheduledExecutorService timer;
  private final ScheduledFuture<?> checks;

  /**
   * Starts watching: the containers are started at once when the gate is up, else once it is.
   *
   * @param containers stopped until the gate is first seen up
   */
  ContainerIntakeWatch(IntakeGate gate, List<? extends Lifecycle> containers, Duration interval) {
    this.gate = gate;
    this.containers = List.copyOf(containers);
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("jms-intake-watch").daemon().factory());
    check();
    checks =
        timer.scheduleWithFixedDelay(
            this::checkLogged, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
  }

  private void checkLogged() {
    try {
      check();
    } catch (RuntimeException e) {
      log.warn("Starting or stopping the JMS listener containers failed: {}", e.toString());
    }
  }

  /** Starts or stops the containers as the gate is now. */
  void check() {
    boolean up = !(gate.intake() instanceof Availability.Down);
    for (Lifecycle container : containers) {
      if (up && !container.isRunning()) {
        container.start();
      } else if (!up && container.isRunning()) {
        container.stop();
      }
    }
  }

  /** Stops watching (the containers stay as they are); waits for a check under way. */
  @Override
  public void close() {
    checks.cancel(false);
    timer.shutdownNow();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
