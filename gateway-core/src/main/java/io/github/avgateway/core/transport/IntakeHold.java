package io.github.avgateway.core.transport;

/**
 * Holds a consumer and its batch while the intake gate is down, instead of returning the batch to
 * the broker: a return counts as a delivery attempt (a quorum queue's {@code x-delivery-count}, a
 * JMS redelivery), so a request caught in outages of clamd or of the history backlog would
 * otherwise be dead-lettered as {@code DELIVERY_LIMIT_EXCEEDED} although nothing was wrong with it.
 * A hold is bounded (each transport's pause-hold setting) and ends when the consumer stops. Each
 * transport implements it with its broker's way of keeping a batch: unacknowledged deliveries on
 * AMQP, an open transaction on JMS.
 */
public interface IntakeHold {

  /**
   * Returns true at once while intake is open; otherwise holds the calling thread until intake is
   * open again (true) or the hold ends: its time is spent, the consumer stops or the thread is
   * interrupted (false: the caller returns the batch to the broker).
   */
  boolean awaitOpen();

  /**
   * Why intake was last seen closed, for the log line of a batch returned to the broker; empty when
   * it never was.
   */
  String why();
}
