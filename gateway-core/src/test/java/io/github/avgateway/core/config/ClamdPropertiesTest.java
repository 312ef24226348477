package io.github.avgateway.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.clamd.ClamdEndpoint;
import io.github.avgateway.core.clamd.ClamdSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

class ClamdPropertiesTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(ClamdProperties.class)
  static class PropertiesOnly {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(PropertiesOnly.class);

  @Test
  void defaultsAreSafeForProduction() {
    runner.run(context -> {
      ClamdProperties properties = context.getBean(ClamdProperties.class);
      assertThat(properties.enabled()).isTrue();
      assertThat(properties.endpoints()).containsExactly("127.0.0.1:3310");
      assertThat(properties.poolSize()).isEqualTo(8);
      assertThat(properties.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
      assertThat(properties.readTimeout()).isEqualTo(Duration.ofSeconds(60));
      assertThat(properties.maxSize()).isEqualTo(DataSize.ofMegabytes(100));
      assertThat(properties.chunkSize()).isEqualTo(DataSize.ofKilobytes(64));
      assertThat(properties.evictIdleAfter()).isEqualTo(Duration.ofSeconds(60));
      assertThat(properties.versionRefresh()).isEqualTo(Duration.ofSeconds(2));
      assertThat(properties.server().streamMaxLength()).isEqualTo(DataSize.ofMegabytes(200));
      assertThat(properties.server().maxScanTime()).isEqualTo(Duration.ofSeconds(30));
      assertThat(properties.server().idleTimeout()).isEqualTo(Duration.ofSeconds(120));
    });
  }

  @Test
  void kebabCaseKeysBindAndMapOntoTheClientSettings() {
    runner
        .withPropertyValues(
            "avgateway.clamd.endpoints=10.0.0.1:3310,[::1]:3311",
            "avgateway.clamd.pool-size=4",
            "avgateway.clamd.connect-timeout=500ms",
            "avgateway.clamd.read-timeout=45s",
            "avgateway.clamd.max-size=20MB",
            "avgateway.clamd.chunk-size=128KB",
            "avgateway.clamd.evict-idle-after=30s",
            "avgateway.clamd.validate-after-idle=0s",
            "avgateway.clamd.borrow-timeout=5s",
            "avgateway.clamd.probe-interval=1s",
            "avgateway.clamd.version-refresh=2m",
            "avgateway.clamd.self-test-interval=10m")
        .run(context -> {
          ClamdSettings settings =
              ClamdAutoConfiguration.settings(context.getBean(ClamdProperties.class));
          assertThat(settings.endpoints())
              .containsExactly(new ClamdEndpoint("10.0.0.1", 3310), new ClamdEndpoint("::1", 3311));
          assertThat(settings.poolSize()).isEqualTo(4);
          assertThat(settings.connectTimeout()).isEqualTo(Duration.ofMillis(500));
          assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(45));
          assertThat(settings.maxSizeBytes()).isEqualTo(20L * 1024 * 1024);
          assertThat(settings.chunkSizeBytes()).isEqualTo(128 * 1024);
          assertThat(settings.evictIdleAfter()).isEqualTo(Duration.ofSeconds(30));
          assertThat(settings.validateAfterIdle()).isEqualTo(Duration.ZERO);
          assertThat(settings.borrowTimeout()).isEqualTo(Duration.ofSeconds(5));
          assertThat(settings.probeInterval()).isEqualTo(Duration.ofSeconds(1));
          assertThat(settings.versionRefresh()).isEqualTo(Duration.ofMinutes(2));
        });
  }

  @Test
  void theDefaultsMapOntoTheClientDefaults() {
    runner.run(context ->
        assertThat(ClamdAutoConfiguration.settings(context.getBean(ClamdProperties.class)))
            .isEqualTo(
                ClamdSettings.builder(List.of(new ClamdEndpoint("127.0.0.1", 3310))).build()));
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "endpoints|''|needs at least one clamd host:port",
        "endpoints|localhost|endpoints must each be host:port",
        "endpoints|127.0.0.1:99999|endpoints must each be host:port",
        "pool-size|0|must be at least 1",
        "pool-size|1000|must be at most 256",
        "connect-timeout|0s|must be positive",
        "read-timeout|30s|read-timeout must be above server.max-scan-time",
        "max-size|201MB|max-size must be positive and at most server.stream-max-length",
        "max-size|0B|max-size must be positive",
        "chunk-size|100B|chunk-size must be between 1KB and 8MB",
        "chunk-size|16MB|chunk-size must be between 1KB and 8MB",
        "evict-idle-after|120s|evict-idle-after must be below server.idle-timeout",
        "validate-after-idle|-1s|must not be negative",
        "probe-interval|0s|must be positive"
      })
  void invalidValuesStopStartupWithAClearMessage(String key, String value, String message) {
    runner
        .withPropertyValues("avgateway.clamd." + key + "=" + value)
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .rootCause()
              .hasMessageContaining("avgateway.clamd")
              .hasMessageContaining(message);
        });
  }

  @Test
  void theServerLimitsCanBeRaisedTogetherWithTheClientsOwn() {
    runner
        .withPropertyValues(
            "avgateway.clamd.server.stream-max-length=1GB",
            "avgateway.clamd.server.max-scan-time=120s",
            "avgateway.clamd.max-size=500MB",
            "avgateway.clamd.read-timeout=180s")
        .run(context -> assertThat(context).hasNotFailed());
  }
}
