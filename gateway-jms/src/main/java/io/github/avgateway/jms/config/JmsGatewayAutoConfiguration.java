package io.github.avgateway.jms.config;

import io.github.avgateway.core.config.ClamdAutoConfiguration;
import io.github.avgateway.core.config.PipelineAutoConfiguration;
import io.github.avgateway.core.pipeline.IntakeGates;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.jms.EmbeddedBroker;
import io.github.avgateway.jms.JmsGateway;
import io.github.avgateway.solr.config.SolrHistoryAutoConfiguration;
import jakarta.jms.ConnectionFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.unit.DataSize;

/**
 * Wires the JMS front-end from the application's {@link ScanPipeline} (core's {@code
 * PipelineAutoConfiguration}), {@link HistoryRecorder} and every {@link IntakeGate} bean (clamd
 * readiness, the Solr history gate): the embedded broker (unless {@code
 * avgateway.jms.mode=EXTERNAL}), the gateway's connection factory, and the {@link JmsGateway}
 * itself.
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
@EnableConfigurationProperties(JmsProperties.class)
public class JmsGatewayAutoConfiguration {

  /** Bean name of the connection factory the gateway's consumers use. */
  public static final String CONNECTION_FACTORY = "avgatewayJmsConnectionFactory";

  @Bean(initMethod = "start", destroyMethod = "stop")
  @ConditionalOnProperty(
      prefix = "avgateway.jms",
      name = "mode",
      havingValue = "EMBEDDED",
      matchIfMissing = true)
  EmbeddedBroker avgatewayEmbeddedBroker(JmsProperties properties) {
    return new EmbeddedBroker(properties);
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

  /** Every intake gate of the application, as the JMS consumers see it. */
  @Bean
  IntakeGates avgatewayJmsIntake(ObjectProvider<IntakeGate> gates) {
    return new IntakeGates("JMS", gates.orderedStream().toList());
  }

  @Bean
  JmsGateway jmsGateway(
      JmsProperties properties,
      @Qualifier(CONNECTION_FACTORY) ConnectionFactory factory,
      ScanPipeline pipeline,
      HistoryRecorder history,
      @Qualifier("avgatewayJmsIntake") IntakeGates intake) {
    return JmsGateway.create(properties, factory, pipeline, history, intake::intake);
  }
}
