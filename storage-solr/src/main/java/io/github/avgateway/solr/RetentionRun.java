package io.github.avgateway.solr;

import java.time.Duration;
import java.time.Instant;

/**
 * The outcome of one purge.
 *
 * @param cutoff documents received before this were to be deleted
 * @param purged documents that matched the cutoff when the purge started
 * @param took how long the purge ran
 * @param behind true when the budget ran out before the cutoff was reached
 */
public record RetentionRun(Instant cutoff, long purged, Duration took, boolean behind) {

  /** Cost of the purge per deleted document in microseconds; 0 when nothing was deleted. */
  public double microsPerDocument() {
    return purged == 0 ? 0 : took.toNanos() / 1000.0 / purged;
  }
}
