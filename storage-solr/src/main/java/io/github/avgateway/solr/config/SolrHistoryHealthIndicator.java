package io.github.avgateway.solr.config;

import io.github.avgateway.core.config.ops.AvailabilityHealth;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.solr.SolrHistoryGate;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health {@code history}: the {@link SolrHistoryGate} the history indexer holds on. DOWN while Solr
 * does not accept writes or retention is behind, with the reason; details show both sides. Not part
 * of readiness: Solr is not on the scan path.
 */
final class SolrHistoryHealthIndicator implements HealthIndicator {

  private final SolrHistoryGate gate;
  private final String collection;

  SolrHistoryHealthIndicator(SolrHistoryGate gate, String collection) {
    this.gate = gate;
    this.collection = collection;
  }

  @Override
  public Health health() {
    return AvailabilityHealth.of(gate.accepting())
        .withDetail("collection", collection)
        .withDetail("writes", describe(gate.writes()))
        .withDetail("retention", describe(gate.retention()))
        .build();
  }

  private static String describe(Availability availability) {
    return switch (availability) {
      case Availability.Up up -> "up";
      case Availability.Down down -> "down: " + down.why();
    };
  }
}
