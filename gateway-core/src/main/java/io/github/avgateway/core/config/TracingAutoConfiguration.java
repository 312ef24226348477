package io.github.avgateway.core.config;

import io.github.avgateway.core.trace.MicrometerRequestTracer;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.core.trace.brave.BatchingSpanHandler;
import io.github.avgateway.core.trace.brave.SpanBatching;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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

  /**
   * Finished spans reach Zipkin's reporter in batches ({@link BatchingSpanHandler}), every {@code
   * avgateway.tracing.span-batch-interval} (200 ms; {@code 0} hands each span over as it ends, as
   * Spring Boot alone does).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name = {"brave.TracingCustomizer", "zipkin2.reporter.brave.AsyncZipkinSpanHandler"})
  static class SpanBatchingConfiguration {

    static final String BEAN = "avgatewaySpanBatching";

    /** How often finished spans are handed to Zipkin's reporter; 0 for each as it ends. */
    public static final String INTERVAL = "avgateway.tracing.span-batch-interval";

    @Bean(BEAN)
    SpanBatching avgatewaySpanBatching(
        Environment environment, ConfigurableListableBeanFactory beanFactory) {
      Duration interval = DurationStyle.detectAndParse(environment.getProperty(INTERVAL, "200ms"));
      // Closed before the reporters it hands spans to, so that what waits still reaches them.
      for (String reporter :
          beanFactory.getBeanNamesForType(
              zipkin2.reporter.brave.AsyncZipkinSpanHandler.class, false, false)) {
        beanFactory.registerDependentBean(reporter, BEAN);
      }
      return new SpanBatching(interval);
    }
  }
}
