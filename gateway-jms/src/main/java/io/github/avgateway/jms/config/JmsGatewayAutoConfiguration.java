package io.github.avgateway.jms.config;

import io.github.avgateway.core.config.ClamdAutoConfiguration;
import io.github.avgateway.core.config.GatewayModeProperties;
import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.config.PipelineAutoConfiguration;
import io.github.avgateway.core.history.HistoryBacklog;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.jms.broker.EmbeddedBroker;
import io.github.avgateway.jms.broker.JmsHistoryBacklog;
import io.github.avgateway.jms.intake.JmsGateway;
import io.github.avgateway.solr.config.SolrHistoryAutoConfiguration;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.util.unit.DataSize;

/**
 * Wires the JMS front-end from the application's {@link ScanPipeline} (core's {@code
 * PipelineAutoConfiguration}), {@link HistoryRecorder} (the history store the indexer writes to)
 * and every {@link IntakeGate} bean (clamd readiness; the history backlog): the embedded broker
 * (unless {@code avgateway.jms.mode=EXTERNAL}) and its count of the history backlog, and the
 * gateway's connection factory; it imports the history indexer ({@link JmsHistoryConfiguration},
 * docs/history-stream.md) and, unless {@code avgateway.mode=indexer}, the {@link JmsGateway} itself
 * with the history stream's backlog gate and its probe ({@link JmsIntakeConfiguration}).
 */
@AutoConfiguration(
    after = {
      ClamdAutoConfiguration.class,
      PipelineAutoConfiguration.class,
      SolrHistoryAutoConfiguration.class
    },
    // Spring Boot's JMS health indicator ("jms", in readiness) checks this connection factory.
    beforeName = {
      "org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration",
      "org.springframework.boot.jms.autoconfigure.health.JmsHealthContributorAutoConfiguration"
    })
@EnableConfigurationProperties({
  JmsProperties.class,
  HistoryStreamProperties.class,
  GatewayModeProperties.class
})
@Import({JmsIntakeConfiguration.class, JmsHistoryConfiguration.class})
public class JmsGatewayAutoConfiguration {

  /** Bean name of the connection factory the gateway's consumers use. */
  public static final String CONNECTION_FACTORY = "avgatewayJmsConnectionFactory";

  @Bean(initMethod = "start", destroyMethod = "stop")
  @ConditionalOnProperty(
      prefix = "avgateway.jms",
      name = "mode",
      havingValue = "EMBEDDED",
      matchIfMissing = true)
  EmbeddedBroker avgatewayEmbeddedBroker(
      JmsProperties properties, HistoryStreamProperties history) {
    return new EmbeddedBroker(properties, history);
  }

  @Bean(name = CONNECTION_FACTORY, destroyMethod = "close")
  ActiveMQConnectionFactory avgatewayJmsConnectionFactory(
      JmsProperties properties, ObjectProvider<EmbeddedBroker> broker) {
    EmbeddedBroker embedded = broker.getIfAvailable();
    ActiveMQConnectionFactory factory =
        embedded != null
            ? new ActiveMQConnectionFactory(embedded.inVmUrl())
            : new ActiveMQConnectionFactory(
                externalUrl(properties.url(), properties.tls()),
                properties.user(),
                properties.password());
    DataSize window = properties.consumerWindowSize();
    if (window != null) {
      factory.setConsumerWindowSize(Math.toIntExact(window.toBytes()));
    } else if (embedded == null) {
      factory.setConsumerWindowSize(0); // see JmsProperties#consumerWindowSize
    }
    return factory;
  }

  /**
   * The external broker's URL, with the TLS parameters added when {@code avgateway.jms.tls} is
   * enabled. The result holds the trust store password: it is handed to the client only, never
   * logged.
   */
  static String externalUrl(String url, JmsProperties.Tls tls) {
    if (!tls.enabled()) {
      return url;
    }
    StringBuilder out = new StringBuilder(url).append(url.contains("?") ? '&' : '?');
    out.append("sslEnabled=true");
    if (!tls.trustStore().isBlank()) {
      out.append("&trustStorePath=").append(encode(tls.trustStore()));
      out.append("&trustStorePassword=").append(encode(tls.trustStorePassword()));
    }
    return out.toString();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /**
   * Health {@code embeddedBroker}: DOWN while the embedded broker blocks every producer because its
   * data directory's disk has less than {@code embedded.min-disk-free} free; callers then see only
   * "address ... is blocked", so the reason is here and in the broker's log (AMQ222212). Not part
   * of readiness: an external broker has no such component, and readiness names the same components
   * in both modes.
   */
  @Bean
  @ConditionalOnBean(EmbeddedBroker.class)
  @ConditionalOnClass(HealthIndicator.class)
  HealthIndicator embeddedBrokerHealthIndicator(EmbeddedBroker broker, JmsProperties properties) {
    return () -> embeddedBrokerHealth(broker.diskFull(), properties.embedded());
  }

  static Health embeddedBrokerHealth(boolean diskFull, JmsProperties.Embedded embedded) {
    Path data = embedded.dataDir().toAbsolutePath().normalize();
    Health.Builder health = diskFull ? Health.down() : Health.up();
    health.withDetail("dataDir", data.toString());
    health.withDetail("minDiskFreeBytes", embedded.minDiskFree().toBytes());
    usableBytes(data).ifPresent(free -> health.withDetail("diskFreeBytes", free));
    if (diskFull) {
      health.withDetail(
          "reason",
          "less than min-disk-free is free on the disk of dataDir: the broker blocks every"
              + " producer (callers, replies, history) until there is more");
    }
    return health.build();
  }

  /** Usable bytes on the disk of {@code dir} or of its nearest existing parent. */
  private static OptionalLong usableBytes(Path dir) {
    for (Path p = dir; p != null; p = p.getParent()) {
      try {
        return OptionalLong.of(Files.getFileStore(p).getUsableSpace());
      } catch (IOException e) {
        // not there (yet): ask its parent
      }
    }
    return OptionalLong.empty();
  }

  /**
   * The embedded broker counts the backlog (health and meters of the backlog and the indexer); an
   * external one is not asked.
   */
  @Bean
  @ConditionalOnBean(EmbeddedBroker.class)
  HistoryBacklog avgatewayJmsHistoryBacklog(
      EmbeddedBroker broker, HistoryStreamProperties history) {
    return new JmsHistoryBacklog(broker, history.queue());
  }
}
