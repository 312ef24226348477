package io.github.avgateway.solr;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link SolrRetention} purges.
 *
 * @param maxAge documents received longer ago than this are deleted
 * @param interval time between the end of one purge and the start of the next
 * @param budget longest one purge may run; if documents older than {@code maxAge} are left when it
 *     runs out, retention is behind and the history indexer holds until a later purge catches up
 * @param slice the time span one delete-by-query covers, oldest first, so that a large backlog is
 *     removed in bounded requests and the budget can be checked between them
 */
public record RetentionSettings(
    Duration maxAge, Duration interval, Duration budget, Duration slice) {

  public RetentionSettings {
    Objects.requireNonNull(maxAge, "maxAge");
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(slice, "slice");
    if (maxAge.isNegative() || maxAge.isZero() || interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("max age and interval must be positive");
    }
    if (slice.isNegative() || slice.isZero()) {
      throw new IllegalArgumentException("slice must be positive");
    }
  }

  /** A retry delay after a purge that was behind or failed: the interval, at most one minute. */
  Duration retryDelay() {
    Duration minute = Duration.ofMinutes(1);
    return interval.compareTo(minute) < 0 ? interval : minute;
  }
}
