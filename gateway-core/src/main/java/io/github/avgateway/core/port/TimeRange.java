package io.github.avgateway.core.port;

import java.time.Instant;
import java.util.Objects;

/**
 * A half-open time interval {@code [from, to)}.
 *
 * @param from first instant included
 * @param to first instant excluded; after {@code from}
 */
public record TimeRange(Instant from, Instant to) {

  public TimeRange {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    if (!to.isAfter(from)) {
      throw new IllegalArgumentException("empty time range: " + from + " .. " + to);
    }
  }

  /** Whether {@code instant} lies in this range. */
  public boolean contains(Instant instant) {
    return !instant.isBefore(from) && instant.isBefore(to);
  }
}
