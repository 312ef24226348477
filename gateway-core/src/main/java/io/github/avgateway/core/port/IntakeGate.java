package io.github.avgateway.core.port;

/**
 * Tells front-ends whether to take new requests. While it is {@link Availability.Down} (clamd
 * unreachable, history refusing writes or behind on retention) consumers stop taking messages,
 * which stay safe in the broker, and start again by themselves once it is {@link Availability.Up}.
 */
public interface IntakeGate {

  /** The current state; cheap enough to call before every batch. */
  Availability intake();
}
