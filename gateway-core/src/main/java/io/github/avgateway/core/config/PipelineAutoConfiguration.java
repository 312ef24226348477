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
    long maxSize = maxSize(clamd.getIfAvailable()).toBytes();
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

  /**
   * The gateway's payload limit: {@code avgateway.clamd.max-size}, or 100 MiB when clamd is not
   * configured here. A front-end's broker client must take every body up to it.
   */
  public static DataSize maxSize(ClamdProperties clamd) {
    return clamd == null ? DEFAULT_MAX_SIZE : clamd.maxSize();
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
