package io.github.avgateway.jms.intake;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.transport.IntakeHold;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Keeps one batch's transaction open while the intake gate is down, so that an outage of clamd or
 * Solr costs the requests in flight no delivery attempt: the batch waits for the gate instead of
 * rolling back. The wait is bounded: one hold budget per batch, spent from the first time the batch
 * found the gate down; once it is spent (or the consumer stops) the batch rolls back after all, and
 * that one rollback counts as a delivery. Used by one consumer thread.
 */
final class JmsIntakeHold implements IntakeHold {

  private final IntakeGate gate;
  private final Duration pollInterval;
  private final Duration budget;
  private final CountDownLatch stopping;
  private long deadline;
  private boolean started;
  private String why = "";

  /**
   * @param pollInterval how often the gate is asked again while it is down
   * @param budget the longest a batch is held in total
   * @param stopping counted down when the consumer is asked to stop; ends the hold at once
   */
  JmsIntakeHold(IntakeGate gate, Duration pollInterval, Duration budget, CountDownLatch stopping) {
    this.gate = gate;
    this.pollInterval = pollInterval;
    this.budget = budget;
    this.stopping = stopping;
  }

  /**
   * Returns true at once while the gate is up; otherwise waits until it is up again (true), the
   * hold budget of this batch is spent or the consumer stops (false).
   */
  @Override
  public boolean awaitOpen() {
    Availability state;
    while ((state = gate.intake()) instanceof Availability.Down down) {
      why = down.why();
      if (!started) {
        started = true;
        deadline = System.nanoTime() + budget.toNanos();
      }
      long left = deadline - System.nanoTime();
      if (left <= 0 || stopping.getCount() == 0 || !pause(Math.min(left, pollInterval.toNanos()))) {
        return false;
      }
    }
    return state instanceof Availability.Up;
  }

  /** Whether the gate is down right now. */
  boolean isDown() {
    return gate.intake() instanceof Availability.Down;
  }

  /** Why the gate was last seen down, for the log line of a rollback. */
  @Override
  public String why() {
    return why;
  }

  /** Waits {@code nanos} or until stopping; false when stopping or interrupted. */
  private boolean pause(long nanos) {
    try {
      return !stopping.await(nanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
