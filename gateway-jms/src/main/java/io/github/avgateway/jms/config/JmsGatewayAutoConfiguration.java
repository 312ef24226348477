package io.github.avgateway.jms.config;

import io.github.avgateway.core.config.ClamdAutoConfiguration;
import io.github.avgateway.core.config.ConditionalOnScanningMode;
import io.github.avgateway.core.config.GatewayModeProperties;
import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.config.PipelineAutoConfiguration;
import io.github.avgateway.core.history.Backoff;
import io.github.avgateway.core.history.HistoryBacklog;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.HistoryIndexer;
import io.github.avgateway.core.history.IndexerStatus;
import io.github.avgateway.core.pipeline.IntakeGates;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.HistoryStoreGate;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.jms.EmbeddedBroker;
import io.github.avgateway.jms.HistoryRoom;
import io.github.avgateway.jms.JmsBacklogProbe;
import io.github.avgateway.jms.JmsGateway;
import io.github.avgateway.jms.JmsHistoryBacklog;
import io.github.avgateway.jms.JmsHistoryIndexer;
import io.github.avgateway.jms.QueueLookup;
import io.github.avgateway.solr.config.SolrHistoryAutoConfiguration;
import jakarta.jms.ConnectionFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * Wires the JMS front-end from the application's {@link ScanPipeline} (core's {@code
 * PipelineAutoConfiguration}), {@link HistoryRecorder} (the history store the indexer writes to)
 * and every {@link IntakeGate} bean (clamd readiness; the history backlog): the embedded broker
 * (unless {@code avgateway.jms.mode=EXTERNAL}), the gateway's connection factory, the history
 * indexer (docs/history-stream.md) and, unless {@code avgateway.mode=indexer}, the {@link
 * JmsGateway} itself with the history stream's backlog gate and its probe.
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
   * The embedded broker counts the backlog (health and meters of the backlog and the indexer); an
   * external one is not asked.
   */
  @Bean
  @ConditionalOnBean(EmbeddedBroker.class)
  HistoryBacklog avgatewayJmsHistoryBacklog(
      EmbeddedBroker broker, HistoryStreamProperties history) {
    return new JmsHistoryBacklog(broker, history.queue());
  }

  /**
   * The scanning consumers and what only they use: everything but {@code avgateway.mode=indexer}.
   * An indexer-only process has no {@link ScanPipeline} (no clamd), sends no history and so needs
   * no backlog gate or probe.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnScanningMode
  static class Scanning {

    /**
     * Every intake gate of the application, as the JMS consumers see it: clamd's readiness and the
     * history backlog. The history store has none (Solr is not on the scan path; its {@link
     * HistoryStoreGate} holds the indexer instead).
     */
    @Bean
    IntakeGates avgatewayJmsIntake(ObjectProvider<IntakeGate> gates) {
      return new IntakeGates("JMS", gates.orderedStream().toList());
    }

    /** The history stream's bound as the scan path sees it (an intake gate; readiness). */
    @Bean
    HistoryBacklogGate avgatewayHistoryBacklog(HistoryStreamProperties history) {
      return new HistoryBacklogGate(history.queue());
    }

    /** Room on the history address: asked of the embedded broker; unknown on an external one. */
    @Bean
    HistoryRoom avgatewayJmsHistoryRoom(
        ObjectProvider<EmbeddedBroker> broker, HistoryStreamProperties history) {
      EmbeddedBroker embedded = broker.getIfAvailable();
      return embedded == null ? HistoryRoom.UNKNOWN : () -> !embedded.historyFull(history.queue());
    }

    /** Whether a queue exists: asked of the embedded broker; unknown on an external one. */
    @Bean
    QueueLookup avgatewayJmsQueueLookup(ObjectProvider<EmbeddedBroker> broker) {
      EmbeddedBroker embedded = broker.getIfAvailable();
      return embedded == null ? QueueLookup.REMOTE : embedded::anycastQueueExists;
    }

    @Bean
    @ConditionalOnBooleanProperty(name = "avgateway.history.enabled", matchIfMissing = true)
    JmsBacklogProbe avgatewayJmsBacklogProbe(
        @Qualifier(CONNECTION_FACTORY) ConnectionFactory factory,
        HistoryRoom room,
        HistoryStreamProperties history,
        HistoryBacklogGate gate,
        JmsProperties properties) {
      return new JmsBacklogProbe(
          factory, history.queue(), room, gate, properties.pausePollInterval());
    }

    @Bean
    JmsGateway jmsGateway(
        JmsProperties properties,
        HistoryStreamProperties history,
        @Qualifier(CONNECTION_FACTORY) ConnectionFactory factory,
        ScanPipeline pipeline,
        HistoryBacklogGate backlog,
        HistoryRoom room,
        QueueLookup lookup,
        @Qualifier("avgatewayJmsIntake") IntakeGates intake,
        ObjectProvider<RequestTracer> tracer) {
      return JmsGateway.create(
          properties,
          history,
          factory,
          pipeline,
          backlog,
          room,
          lookup,
          intake.gate(),
          tracer.getIfAvailable(() -> RequestTracer.NONE));
    }
  }

  /**
   * The history indexer in this gateway: on unless history is off or {@code
   * avgateway.history.indexer.enabled=false}; writes to the history store ({@link HistoryRecorder},
   * Solr unless the application defines another).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty(name = "avgateway.history.enabled", matchIfMissing = true)
  @ConditionalOnBooleanProperty(name = "avgateway.history.indexer.enabled", matchIfMissing = true)
  static class Indexer {

    @Bean
    IndexerStatus avgatewayHistoryIndexerStatus() {
      return new IndexerStatus(Clock.systemUTC());
    }

    @Bean
    JmsHistoryIndexer avgatewayJmsHistoryIndexer(
        @Qualifier(CONNECTION_FACTORY) ConnectionFactory factory,
        HistoryStreamProperties history,
        HistoryRecorder store,
        ObjectProvider<HistoryStoreGate> storeGate,
        IndexerStatus status) {
      HistoryStreamProperties.Indexer indexer = history.indexer();
      HistoryStoreGate gate = storeGate.getIfAvailable(() -> HistoryStoreGate.ALWAYS_ACCEPTING);
      return new JmsHistoryIndexer(
          factory,
          history.queue(),
          history.deadLetterQueue(),
          indexer.batchSize(),
          new HistoryIndexer(store, gate, indexer.acceptTimeout(), status),
          new Backoff(indexer.backoffFirst(), indexer.backoffMax()));
    }
  }
}
