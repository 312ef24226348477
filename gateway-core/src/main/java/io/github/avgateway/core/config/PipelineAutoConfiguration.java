package io.github.avgateway.core.config;

import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.pipeline.VerdictCache;
import io.github.avgateway.core.port.PipelineObserver;
import io.github.avgateway.core.port.VirusScanner;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.unit.DataSize;

/**
 * The {@link ScanPipeline} both front-ends use: the application's {@link VirusScanner}, the payload
 * limit of {@code avgateway.clamd.max-size} (100 MiB when clamd is not configured here), and the
 * verdict cache of {@code avgateway.pipeline.cache.*}, observed by every {@link PipelineObserver}
 * bean (metrics).
 */
@AutoConfiguration(after = ClamdAutoConfiguration.class)
@ConditionalOnBean(VirusScanner.class)
@EnableConfigurationProperties(PipelineProperties.class)
public class PipelineAutoConfiguration {

  private static final DataSize DEFAULT_MAX_SIZE = DataSize.ofMegabytes(100);

  @Bean
  @ConditionalOnMissingBean
  public ScanPipeline scanPipeline(
      VirusScanner scanner,
      PipelineProperties properties,
      ObjectProvider<ClamdProperties> clamd,
      ObjectProvider<PipelineObserver> observers) {
    ClamdProperties clamdProperties = clamd.getIfAvailable();
    long maxSize =
        (clamdProperties == null ? DEFAULT_MAX_SIZE : clamdProperties.maxSize()).toBytes();
    PipelineProperties.Cache cache = properties.cache();
    VerdictCache verdicts = VerdictCache.bounded(cache.maxEntries(), cache.ttl(), cache.enabled());
    return new ScanPipeline(
        scanner,
        verdicts,
        maxSize,
        Clock.systemUTC(),
        gatewayName(properties.gatewayName()),
        PipelineObservers.of(observers.orderedStream().toList()));
  }

  private static String gatewayName(String configured) {
    if (!configured.isBlank()) {
      return configured;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
