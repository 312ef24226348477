package io.github.avgateway.solr;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How the history lives in a Solr time-routed alias: one collection per {@code interval} of receipt
 * time ({@code receivedAt} is the router field), created by Solr as documents of a new interval
 * arrive, and dropped whole by Solr ({@code router.autoDeleteAge}) when a newer one is created.
 *
 * <p>Retention: a document is kept at least {@code keep}, and is dropped with its collection at
 * most about two intervals plus the window and the max-future later, and only when Solr creates a
 * newer collection (while nothing is written, nothing is dropped). Solr drops, when it creates the
 * collection starting at {@code s}, every collection that starts before {@code s + interval -
 * autoDeleteAge}; that creation happens at {@code s - preemptiveWindow - maxFuture} at the
 * earliest, so {@link #autoDeleteAge()} is {@code keep + interval + preemptiveWindow + maxFuture},
 * rounded up to whole intervals (collections start on whole intervals, so rounding up drops nothing
 * earlier).
 *
 * @param interval the receipt time one collection covers: whole minutes, at least one
 * @param maxFuture how far ahead of Solr's clock a document's receipt time may be for Solr to route
 *     it (Solr's {@code router.maxFutureMs}); at least a minute. Documents further ahead are stored
 *     in the newest collection by the gateway ({@link HistoryCollections})
 * @param preemptiveWindow how long before the next interval starts Solr creates its collection in
 *     the background (so that no write waits for a collection to be created); zero for none
 * @param keep the least time a document is kept; zero keeps every collection (no auto-delete)
 */
public record TimeRouting(
    Duration interval, Duration maxFuture, Duration preemptiveWindow, Duration keep) {

  private static final Duration MINUTE = Duration.ofMinutes(1);

  public TimeRouting {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(maxFuture, "maxFuture");
    Objects.requireNonNull(preemptiveWindow, "preemptiveWindow");
    Objects.requireNonNull(keep, "keep");
    if (interval.compareTo(MINUTE) < 0
        || interval.toSeconds() % 60 != 0
        || interval.getNano() != 0) {
      throw new IllegalArgumentException(
          "a time-routed interval is whole minutes, at least one: " + interval);
    }
    if (maxFuture.compareTo(MINUTE) < 0) {
      throw new IllegalArgumentException("max-future must be at least a minute: " + maxFuture);
    }
    if (preemptiveWindow.isNegative() || keep.isNegative() || preemptiveWindow.getNano() != 0) {
      throw new IllegalArgumentException(
          "the window (whole seconds) and the retention cannot be negative");
    }
    if (preemptiveWindow.compareTo(interval) >= 0) {
      // Solr would create a collection ahead at every write, each one interval further
      throw new IllegalArgumentException(
          "the preemptive-create window must be shorter than the interval: " + preemptiveWindow);
    }
  }

  /** Solr date math adding one interval, e.g. {@code +1DAY}: the alias' {@code router.interval}. */
  public String intervalMath() {
    return "+" + dateMath(interval);
  }

  /**
   * Solr date math for the alias' {@code router.autoDeleteAge}, e.g. {@code -32DAYS}; null when
   * nothing is to be dropped.
   */
  public String autoDeleteAge() {
    if (keep.isZero()) {
      return null;
    }
    Duration least = keep.plus(interval).plus(preemptiveWindow).plus(maxFuture);
    long intervals = Math.ceilDiv(least.toSeconds(), interval.toSeconds());
    return "-" + dateMath(interval.multipliedBy(intervals));
  }

  /**
   * Solr date math for {@code router.preemptiveCreateMath}, e.g. {@code 60MINUTES}; null for none.
   */
  public String preemptiveCreateMath() {
    return preemptiveWindow.isZero() ? null : dateMath(preemptiveWindow);
  }

  /** The start of the interval holding {@code instant}, intervals counted from the epoch. */
  public Instant intervalStart(Instant instant) {
    long seconds = interval.toSeconds();
    return Instant.ofEpochSecond(Math.floorDiv(instant.getEpochSecond(), seconds) * seconds);
  }

  /** {@code duration} in the largest Solr date-math unit that holds it whole, e.g. 2DAYS. */
  static String dateMath(Duration duration) {
    long seconds = duration.toSeconds();
    if (seconds % 86_400 == 0) {
      return seconds / 86_400 + "DAYS";
    }
    if (seconds % 3_600 == 0) {
      return seconds / 3_600 + "HOURS";
    }
    if (seconds % 60 == 0) {
      return seconds / 60 + "MINUTES";
    }
    return seconds + "SECONDS";
  }
}
