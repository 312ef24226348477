package io.github.avgateway.core.port;

import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Documents per verdict received during one hour.
 *
 * @param hour start of the hour (UTC, whole hour)
 * @param counts a count for every verdict, zero included
 */
public record HourlyVerdictCounts(Instant hour, Map<Verdict, Long> counts) {

  public HourlyVerdictCounts {
    Objects.requireNonNull(hour, "hour");
    EnumMap<Verdict, Long> all = new EnumMap<>(Verdict.class);
    for (Verdict verdict : Verdict.values()) {
      all.put(verdict, counts.getOrDefault(verdict, 0L));
    }
    counts = Collections.unmodifiableMap(all);
  }

  /** The count for {@code verdict}. */
  public long count(Verdict verdict) {
    return counts.get(verdict);
  }

  /** All documents of the hour. */
  public long total() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }
}
