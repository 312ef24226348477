package io.github.avgateway.amqp.intake;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.transport.IntakeHold;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Holds a consumer thread, with its unacknowledged batch, while the intake gate is down (clamd
 * unreachable, the history backlog full). Holding instead of requeueing costs a request no delivery
 * attempt: RabbitMQ 3.x raises a quorum queue's {@code x-delivery-count} on every return (a nack
 * with requeue, a cancelled consumer, a closed channel), so a request that lived through many
 * outages would otherwise be dead-lettered as {@code DELIVERY_LIMIT_EXCEEDED} although nothing was
 * wrong with it. A hold ends when the gate opens, when the gateway stops, or after {@code limit}
 * (kept below the broker's {@code consumer_timeout}, after which RabbitMQ would close the channel
 * and return the batch anyway).
 */
public final class AmqpIntakeHold implements IntakeHold {

  private final IntakeGate gate;
  private final Duration checkInterval;
  private final Duration limit;
  private volatile boolean stopping;
  private volatile String why = "";

  public AmqpIntakeHold(IntakeGate gate, Duration checkInterval, Duration limit) {
    this.gate = gate;
    this.checkInterval = checkInterval;
    this.limit = limit;
  }

  /** The gate's state now. */
  public Availability intake() {
    return gate.intake();
  }

  /** How many times the gate closed so far ({@link IntakeGate#closings()}). */
  public long closings() {
    return gate.closings();
  }

  /** The state now, or Down when the gate closed since {@code closings} was read. */
  public Availability intakeSince(long closings) {
    return gate.intakeSince(closings);
  }

  /**
   * Returns once intake is open: true then; false when the hold ran out, the gateway is stopping or
   * the thread was interrupted (the caller then requeues). {@code onClosed} runs once, first, if
   * intake is closed.
   */
  public boolean awaitOpen(Runnable onClosed) {
    if (!(gate.intake() instanceof Availability.Down down)) {
      return true;
    }
    why = down.why();
    onClosed.run();
    long deadline = System.nanoTime() + limit.toNanos();
    long pause = Math.max(1, checkInterval.toNanos());
    while (gate.intake() instanceof Availability.Down) {
      if (stopping || System.nanoTime() - deadline > 0 || Thread.currentThread().isInterrupted()) {
        return false;
      }
      LockSupport.parkNanos(pause);
    }
    return true;
  }

  @Override
  public boolean awaitOpen() {
    return awaitOpen(() -> {});
  }

  @Override
  public String why() {
    return why;
  }

  /**
   * Holds the calling thread for {@code pause}, or less when the gateway stops or the thread is
   * interrupted.
   */
  public void pause(Duration pause) {
    long deadline = System.nanoTime() + pause.toNanos();
    long step = Math.max(1, checkInterval.toNanos());
    for (long left = pause.toNanos(); left > 0; left = deadline - System.nanoTime()) {
      if (stopping || Thread.currentThread().isInterrupted()) {
        return;
      }
      LockSupport.parkNanos(Math.min(step, left));
    }
  }

  /** Ends every hold now and refuses new ones: the gateway is shutting down. */
  public void stop() {
    stopping = true;
  }

  /** True from {@link #stop()} until {@link #restart()}: the gateway is shutting down. */
  public boolean stopping() {
    return stopping;
  }

  /** Holds are possible again (the consumers were started again). */
  public void restart() {
    stopping = false;
  }
}
