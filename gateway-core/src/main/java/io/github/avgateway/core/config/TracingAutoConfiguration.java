package io.github.avgateway.core.config;

import io.github.avgateway.core.trace.MicrometerRequestTracer;
import io.github.avgateway.core.trace.RequestTracer;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@link RequestTracer} the front-ends trace requests with: on Spring Boot's Micrometer {@link
 * Tracer} and {@link Propagator} (Brave, W3C by default) when {@code
 * management.tracing.export.enabled} is true and there is a real tracer; otherwise {@link
 * RequestTracer#NONE}, which reads and writes no header and records nothing, so tracing off costs
 * nothing per request.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
      "org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration"
    })
@ConditionalOnClass(Tracer.class)
public class TracingAutoConfiguration {

  /** Spring Boot's switch for exporting and propagating traces. */
  public static final String EXPORT_ENABLED = "management.tracing.export.enabled";

  @Bean
  @ConditionalOnMissingBean
  public RequestTracer avgatewayRequestTracer(
      Environment environment,
      ObjectProvider<Tracer> tracer,
      ObjectProvider<Propagator> propagator) {
    Tracer found = tracer.getIfAvailable();
    Propagator propagation = propagator.getIfAvailable();
    boolean enabled = environment.getProperty(EXPORT_ENABLED, Boolean.class, true);
    if (!enabled || found == null || found == Tracer.NOOP || propagation == null) {
      return RequestTracer.NONE;
    }
    return new MicrometerRequestTracer(found, propagation);
  }
}
