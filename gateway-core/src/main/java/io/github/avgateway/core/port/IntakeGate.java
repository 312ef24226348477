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

  /**
   * How many times this gate has closed so far. Two readings that differ say it closed in between,
   * even if it is open again by the second: a scan that failed because clamd went away and came
   * back while the scan was ending is then seen as failed for that reason. Cheap. A gate that does
   * not count returns 0.
   */
  default long closings() {
    return 0;
  }

  /**
   * The state now, but {@link Availability.Down} also when the gate closed since {@code closings}
   * was read from {@link #closings()} and is open again: the reason then says so.
   */
  default Availability intakeSince(long closings) {
    Availability now = intake();
    if (now instanceof Availability.Down || closings() == closings) {
      return now;
    }
    return Availability.down("intake closed and opened again meanwhile (clamd away for a moment)");
  }
}
