package io.github.avgateway.core.config.metrics;

import io.github.avgateway.core.clamd.ClamdEndpointState;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.clamd.SignatureFreshness;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * clamd gauges, read when scraped:
 *
 * <ul>
 *   <li>{@code avgateway.clamd.pool.active}, {@code .idle}, {@code .waiting} — sessions in use,
 *       open and idle, and scans waiting for one, per endpoint
 *   <li>{@code avgateway.clamd.endpoint.up} — 1 while scans go to the endpoint, else 0
 *   <li>{@code avgateway.clamd.signature.age} — seconds since the signatures were built or written
 *       (see {@link SignatureFreshness}); NaN while not measured
 * </ul>
 */
public final class ClamdMeters implements MeterBinder {

  private final ClamdScanner scanner;
  private final SignatureFreshness signatures;

  public ClamdMeters(ClamdScanner scanner, SignatureFreshness signatures) {
    this.scanner = scanner;
    this.signatures = signatures;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    for (ClamdEndpointState state : scanner.endpointStates()) {
      String endpoint = state.endpoint();
      endpointGauge(registry, "avgateway.clamd.pool.active", endpoint, ClamdEndpointState::active);
      endpointGauge(registry, "avgateway.clamd.pool.idle", endpoint, ClamdEndpointState::idle);
      endpointGauge(
          registry, "avgateway.clamd.pool.waiting", endpoint, ClamdEndpointState::waiting);
      endpointGauge(registry, "avgateway.clamd.endpoint.up", endpoint, s -> s.up() ? 1 : 0);
    }
    Gauge.builder("avgateway.clamd.signature.age", signatures, ClamdMeters::ageSeconds)
        .description("Age of clamd's signature database")
        .baseUnit("seconds")
        .register(registry);
  }

  private void endpointGauge(
      MeterRegistry registry, String name, String endpoint, ToIntFunction<ClamdEndpointState> f) {
    Gauge.builder(name, scanner, s -> read(s, endpoint, f))
        .tag("endpoint", endpoint)
        .register(registry);
  }

  private static double read(
      ClamdScanner scanner, String endpoint, ToIntFunction<ClamdEndpointState> f) {
    Optional<ClamdEndpointState> state =
        scanner.endpointStates().stream().filter(s -> s.endpoint().equals(endpoint)).findFirst();
    return state.map(s -> (double) f.applyAsInt(s)).orElse(Double.NaN);
  }

  private static double ageSeconds(SignatureFreshness signatures) {
    return signatures
        .measurement()
        .newest()
        .map(newest -> (double) signatures.age(newest).toSeconds())
        .orElse(Double.NaN);
  }
}
