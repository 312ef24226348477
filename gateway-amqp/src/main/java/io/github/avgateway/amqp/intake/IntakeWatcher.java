package io.github.avgateway.amqp.intake;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.rabbit.listener.MessageListenerContainer;
import org.springframework.context.SmartLifecycle;

/**
 * Owns the request consumers' lifecycle and reports pauses: starts the consumers only once intake
 * is open (so that no request is taken just to wait), and logs when the intake gate goes down
 * (clamd unreachable, the history backlog full) and up again. It does not stop the consumers during
 * a pause: stopping a consumer returns its unacknowledged requests to the queue, which RabbitMQ 3.x
 * counts as a delivery attempt. Instead each consumer holds its batch ({@link AmqpIntakeHold}), and
 * with prefetch bounding what one consumer holds, the rest waits safely in the broker. Checks every
 * interval, and at once when a consumer reports trouble.
 */
public final class IntakeWatcher implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(IntakeWatcher.class);

  private final IntakeGate gate;
  private final List<MessageListenerContainer> containers;
  private final Duration interval;
  private final AmqpIntakeHold hold;
  private final String consumes;
  private ScheduledExecutorService executor;
  private volatile boolean running;
  private volatile boolean paused;
  private boolean announced;
  private volatile Runnable beforeConsumersStop = () -> {};

  /**
   * @param consumes what the consumers read, for the one "ready" line logged when they first start,
   *     e.g. {@code request queue av.scan.requests on 127.0.0.1:5672 (4 consumers)}
   */
  public IntakeWatcher(
      IntakeGate gate,
      MessageListenerContainer container,
      Duration interval,
      AmqpIntakeHold hold,
      String consumes) {
    this(gate, List.of(container), interval, hold, consumes);
  }

  /**
   * @param containers the request consumers and those of every clean-pipe inbox, paused and started
   *     together
   */
  public IntakeWatcher(
      IntakeGate gate,
      List<? extends MessageListenerContainer> containers,
      Duration interval,
      AmqpIntakeHold hold,
      String consumes) {
    this.gate = gate;
    this.containers = List.copyOf(containers);
    this.interval = interval;
    this.hold = hold;
    this.consumes = consumes;
  }

  @Override
  public synchronized void start() {
    running = true;
    hold.restart();
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("avgateway-amqp-intake").unstarted(r));
    // Consumers start only once intake is open, so that no request is taken just to be requeued.
    if (gate.intake() instanceof Availability.Down down) {
      pause(down.why());
    } else {
      startConsumers();
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
    hold.stop();
    beforeConsumersStop.run();
    containers.forEach(MessageListenerContainer::stop);
  }

  /**
   * Runs {@code action} when the gateway stops, after holds ended and before the consumers stop:
   * the listeners wait there for the batches that are waiting to be acknowledged.
   */
  public void beforeConsumersStop(Runnable action) {
    this.beforeConsumersStop = action;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** True while the gate is down: consumers hold what they have and take nothing new to scan. */
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
      log.warn("pausing AMQP intake (consumers hold their batches): {}", why);
    }
  }

  private void resume() {
    if (paused) {
      paused = false;
      log.info("resuming AMQP intake");
      startConsumers();
    }
  }

  private void startConsumers() {
    for (MessageListenerContainer container : containers) {
      if (!container.isRunning()) {
        container.start();
      }
    }
    if (!announced) {
      announced = true;
      log.info(
          "av-gateway AMQP ready: {}, {} s after JVM start",
          consumes,
          String.format("%.1f", ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0));
    }
  }
}
