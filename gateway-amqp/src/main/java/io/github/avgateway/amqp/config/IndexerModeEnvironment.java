package io.github.avgateway.amqp.config;

import java.util.Locale;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With {@code avgateway.mode=indexer}, defaults what an indexer-only process does not need: no
 * clamd client (so no self-test, and readiness without clamd). Added last, so anything configured
 * wins.
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
