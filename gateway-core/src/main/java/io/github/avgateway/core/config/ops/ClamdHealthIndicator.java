package io.github.avgateway.core.config.ops;

import io.github.avgateway.core.clamd.ClamdEndpointState;
import io.github.avgateway.core.clamd.ClamdReadiness;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.clamd.SignatureFreshness;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.port.Availability;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health {@code clamd}: reads the same state the consumers pause on, {@link ClamdReadiness} (PONG,
 * self-test passed, signatures loaded) and then {@link SignatureFreshness} (signature age). DOWN
 * carries the first failing one's reason; details always list the endpoints, engine and signature
 * age.
 */
public final class ClamdHealthIndicator implements HealthIndicator {

  private final ClamdReadiness readiness;
  private final SignatureFreshness signatures;
  private final ClamdScanner scanner;

  public ClamdHealthIndicator(
      ClamdReadiness readiness, SignatureFreshness signatures, ClamdScanner scanner) {
    this.readiness = readiness;
    this.signatures = signatures;
    this.scanner = scanner;
  }

  @Override
  public Health health() {
    Availability state = readiness.availability();
    if (state instanceof Availability.Up) {
      state = signatures.intake();
    }
    EngineVersion version = scanner.version();
    SignatureFreshness.Measurement measured = signatures.measurement();
    return AvailabilityHealth.of(state)
        .withDetail("endpoints", endpoints(scanner.endpointStates()))
        .withDetail("engine", version.engine())
        .withDetail("signatureVersion", version.signatureVersion())
        .withDetail(
            "signatureAge",
            measured.newest().map(n -> signatures.age(n).toString()).orElse("unknown"))
        .withDetail("signatureAgeSource", measured.source())
        .build();
  }

  private static List<Map<String, Object>> endpoints(List<ClamdEndpointState> states) {
    return states.stream().map(ClamdHealthIndicator::endpoint).toList();
  }

  private static Map<String, Object> endpoint(ClamdEndpointState state) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("endpoint", state.endpoint());
    map.put("up", state.up());
    map.put("sessionsActive", state.active());
    map.put("sessionsIdle", state.idle());
    map.put("scansWaiting", state.waiting());
    if (!state.up()) {
      map.put("reason", state.downReason());
    }
    return map;
  }
}
