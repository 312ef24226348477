package io.github.avgateway.core.config.ops;

import io.github.avgateway.core.port.Availability;
import org.springframework.boot.health.contributor.Health;

/** Health from an {@link Availability}: UP, or DOWN with the reason under {@code reason}. */
public final class AvailabilityHealth {

  private AvailabilityHealth() {}

  /** A builder with the status and, when down, the reason already set. */
  public static Health.Builder of(Availability availability) {
    return switch (availability) {
      case Availability.Up up -> Health.up();
      case Availability.Down down -> Health.down().withDetail("reason", down.why());
    };
  }
}
