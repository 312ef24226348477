package io.github.avgateway.core.port;

/**
 * Tells front-ends whether to take new requests. While it is {@link Availability.Down} (clamd
 * unreachable or failing its self-test, the history backlog in the broker at its bound) consumers
 * stop taking messages, which stay safe in the broker, and start again by themselves once it is
 * {@link Availability.Up}. The history store is not an intake gate: its availability holds only the
 * history indexer ({@link HistoryStoreGate}).
 */
public interface IntakeGate {

  /** The current state; cheap enough to call before every batch. */
  Availability intake();
}
