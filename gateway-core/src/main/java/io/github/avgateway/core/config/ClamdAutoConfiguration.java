package io.github.avgateway.core.config;

import io.github.avgateway.core.clamd.ClamdEndpoint;
import io.github.avgateway.core.clamd.ClamdReadiness;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.clamd.ClamdSelfTest;
import io.github.avgateway.core.clamd.ClamdSettings;
import io.github.avgateway.core.clamd.SignatureFreshness;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Creates the {@link ClamdScanner} from {@link ClamdProperties} and a {@link ClamdReadiness} that
 * runs the clamd self-test in the background. Startup neither waits for clamd nor fails when it is
 * down or misconfigured: the readiness bean reports DOWN with the reason until the self-test
 * passes. Turned off with {@code avgateway.clamd.enabled=false}.
 */
@AutoConfiguration
@ConditionalOnProperty(
    prefix = "avgateway.clamd",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(ClamdProperties.class)
public class ClamdAutoConfiguration {

  /** The scanner; its sessions close with the context. */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public ClamdScanner clamdScanner(ClamdProperties properties) {
    return ClamdScanner.start(settings(properties));
  }

  @Bean
  @ConditionalOnMissingBean
  public ClamdSelfTest clamdSelfTest(ClamdScanner scanner) {
    return new ClamdSelfTest(scanner);
  }

  /** Readiness: DOWN until the first self-test passes, and while every endpoint is down. */
  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnMissingBean
  public ClamdReadiness clamdReadiness(
      ClamdSelfTest selfTest, ClamdScanner scanner, ClamdProperties properties) {
    return new ClamdReadiness(
        selfTest,
        scanner::availability,
        scanner::markedDown,
        properties.selfTestInterval(),
        properties.probeInterval());
  }

  /**
   * Readiness of the signatures: DOWN while they are older than {@code
   * avgateway.clamd.signatures.max-age}. An {@code IntakeGate}, so consumers pause meanwhile.
   */
  @Bean
  @ConditionalOnMissingBean
  public SignatureFreshness clamdSignatureFreshness(
      ClamdScanner scanner, ClamdProperties properties) {
    ClamdProperties.Signatures signatures = properties.signatures();
    Optional<Path> directory =
        Optional.of(signatures.directory()).filter(d -> !d.isBlank()).map(Path::of);
    return new SignatureFreshness(
        scanner::signatureDate,
        directory,
        signatures.maxAge(),
        properties.probeInterval(),
        Clock.systemUTC());
  }

  /** The client settings for validated {@code properties}. */
  static ClamdSettings settings(ClamdProperties properties) {
    return ClamdSettings.builder(properties.endpoints().stream().map(ClamdEndpoint::parse).toList())
        .poolSize(properties.poolSize())
        .connectTimeout(properties.connectTimeout())
        .readTimeout(properties.readTimeout())
        .maxSizeBytes(properties.maxSize().toBytes())
        .chunkSizeBytes(Math.toIntExact(properties.chunkSize().toBytes()))
        .evictIdleAfter(properties.evictIdleAfter())
        .validateAfterIdle(properties.validateAfterIdle())
        .borrowTimeout(properties.borrowTimeout())
        .probeInterval(properties.probeInterval())
        .versionRefresh(properties.versionRefresh())
        .build();
  }
}
