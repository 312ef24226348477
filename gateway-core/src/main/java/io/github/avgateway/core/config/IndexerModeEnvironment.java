package io.github.avgateway.core.config;

import java.util.Locale;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With {@code avgateway.mode=indexer} ({@link GatewayModeProperties}), defaults what an
 * indexer-only process of either front-end does not need: no clamd client (so no self-test, no
 * {@code clamd} health, and readiness without clamd). Added last, so anything configured wins.
 * Registered in {@code META-INF/spring.factories} under Spring Boot's {@code
 * EnvironmentPostProcessor} key: it must run before the context exists.
 */
public final class IndexerModeEnvironment implements EnvironmentPostProcessor {

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    String mode = environment.getProperty("avgateway.mode", "gateway");
    if ("indexer".equals(mode.toLowerCase(Locale.ROOT))) {
      environment
          .getPropertySources()
          .addLast(
              new MapPropertySource(
                  "avgatewayIndexerMode", Map.of("avgateway.clamd.enabled", "false")));
    }
  }
}
