package io.github.avgateway.core.history;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Exponential back-off with full jitter between attempts at an unavailable dependency: the n-th
 * wait after a failure is drawn uniformly from zero to a cap that starts at {@code first} and
 * doubles up to {@code max}; a success starts the cap over at {@code first}. The jitter keeps
 * indexers that failed together (one Solr outage) from retrying together in lockstep once it
 * returns. Never longer than {@code max}. Not thread-safe: one per consumer.
 */
public final class Backoff {

  private final Duration first;
  private final Duration max;
  private final DoubleSupplier random;
  private Duration cap;

  /** Jittered by {@link ThreadLocalRandom}. */
  public Backoff(Duration first, Duration max) {
    this(first, max, () -> ThreadLocalRandom.current().nextDouble());
  }

  /**
   * @param random draws of [0, 1] scaling each cap to the wait (tests pass a fixed draw)
   */
  public Backoff(Duration first, Duration max, DoubleSupplier random) {
    if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException("need 0 < first <= max, got " + first + ", " + max);
    }
    this.first = first;
    this.max = max;
    this.random = Objects.requireNonNull(random, "random");
    this.cap = first;
  }

  /** The wait before the next attempt after a failure; each call doubles the next one's cap. */
  public Duration failed() {
    double draw = Math.clamp(random.getAsDouble(), 0.0, 1.0);
    Duration wait = Duration.ofNanos(Math.round(cap.toNanos() * draw));
    cap = cap.multipliedBy(2).compareTo(max) > 0 ? max : cap.multipliedBy(2);
    return wait;
  }

  /** After a success: the next failure's cap is {@code first} again. */
  public void succeeded() {
    cap = first;
  }
}
