package io.github.avgateway.core.config.ops;

import io.github.avgateway.core.clamd.ClamdReadiness;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.clamd.SignatureFreshness;
import io.github.avgateway.core.config.ClamdAutoConfiguration;
import io.github.avgateway.core.config.PipelineAutoConfiguration;
import io.github.avgateway.core.config.metrics.ClamdMeters;
import io.github.avgateway.core.config.metrics.PipelineMeters;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Operating the core: the pipeline's and clamd's meters (bound by Spring Boot to its meter
 * registry, when there is one) and the {@code clamd} health indicator (when Spring Boot's health
 * support is present).
 */
@AutoConfiguration(before = PipelineAutoConfiguration.class, after = ClamdAutoConfiguration.class)
public class ClamdOpsAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  PipelineMeters avgatewayPipelineMeters() {
    return new PipelineMeters();
  }

  @Bean
  @ConditionalOnBean({ClamdScanner.class, SignatureFreshness.class})
  ClamdMeters avgatewayClamdMeters(ClamdScanner scanner, SignatureFreshness signatures) {
    return new ClamdMeters(scanner, signatures);
  }

  /** Health {@code clamd}, read from the same beans the consumers pause on. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnBean({ClamdReadiness.class, SignatureFreshness.class, ClamdScanner.class})
  static class ClamdHealth {

    @Bean
    HealthIndicator clamdHealthIndicator(
        ClamdReadiness readiness, SignatureFreshness signatures, ClamdScanner scanner) {
      return new ClamdHealthIndicator(readiness, signatures, scanner);
    }
  }
}
