package io.github.avgateway.core.history;

import java.time.Duration;

/**
 * Exponential back-off between attempts at an unavailable dependency: {@code first}, doubling up to
 * {@code max}, back to {@code first} after a success. Not thread-safe: one per consumer.
 */
public final class Backoff {

  private final Duration first;
  private final Duration max;
  private Duration next;

  public Backoff(Duration first, Duration max) {
    if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException("need 0 < first <= max, got " + first + ", " + max);
    }
    this.first = first;
    this.max = max;
    this.next = first;
  }

  /** The wait before the next attempt after a failure; each call doubles the one after. */
  public Duration failed() {
    Duration wait = next;
    next = next.multipliedBy(2).compareTo(max) > 0 ? max : next.multipliedBy(2);
    return wait;
  }

  /** After a success: the next failure waits {@code first} again. */
  public void succeeded() {
    next = first;
  }
}
