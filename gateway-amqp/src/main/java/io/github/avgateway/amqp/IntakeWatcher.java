package io.github.avgateway.amqp;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.rabbit.listener.MessageListenerContainer;
import org.springframework.context.SmartLifecycle;

/**
 * Owns the request consumers' lifecycle: starts them with the application, stops them while the
 * intake gate is down (clamd unreachable, history refusing) so that requests wait safely in the
 * broker, and starts them again once it is up. Checks every interval, and at once when a consumer
 * reports trouble. Stopping a consumer returns its unacknowledged requests to the queue.
 */
public final class IntakeWatcher implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(IntakeWatcher.class);

  private final IntakeGate gate;
  private final MessageListenerContainer container;
  private final Duration interval;
  private ScheduledExecutorService executor;
  private volatile boolean running;
  private volatile boolean paused;

  public IntakeWatcher(IntakeGate gate, MessageListenerContainer container, Duration interval) {
    this.gate = gate;
    this.container = container;
    this.interval = interval;
  }

  @Override
  public synchronized void start() {
    running = true;
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("avgateway-amqp-intake").unstarted(r));
    // Consumers start only once intake is open, so that no request is taken just to be requeued.
    if (gate.intake() instanceof Availability.Down down) {
      pause(down.why());
    } else {
      container.start();
    }
    long millis = Math.max(1, interval.toMillis());
    executor.scheduleWithFixedDelay(this::check, millis, millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void stop() {
    running = false;
    if (executor != null) {
      executor.shutdownNow();
    }
    container.stop();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** True while the consumers are stopped because the gate is down. */
  public boolean paused() {
    return paused;
  }

  /** Checks the gate soon, on the watcher's own thread (never blocks the caller). */
  public void checkSoon() {
    ScheduledExecutorService current = executor;
    if (running && current != null) {
      try {
        current.execute(this::check);
      } catch (RejectedExecutionException e) {
        log.debug("intake watcher is stopping; no check", e);
      }
    }
  }

  private synchronized void check() {
    if (!running) {
      return;
    }
    try {
      switch (gate.intake()) {
        case Availability.Down down -> pause(down.why());
        case Availability.Up up -> resume();
      }
    } catch (RuntimeException e) {
      log.warn("intake check failed", e);
    }
  }

  private void pause(String why) {
    if (!paused) {
      paused = true;
      log.warn("pausing AMQP intake: {}", why);
      if (container.isRunning()) {
        container.stop();
      }
    }
  }

  private void resume() {
    if (paused) {
      paused = false;
      log.info("resuming AMQP intake");
      container.start();
    }
  }
}
