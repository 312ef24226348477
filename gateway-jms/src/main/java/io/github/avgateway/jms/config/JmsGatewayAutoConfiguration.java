package io.github.avgateway.jms.config;

import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.pipeline.VerdictCache;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.port.VirusScanner;
import io.github.avgateway.jms.EmbeddedBroker;
import io.github.avgateway.jms.IntakeGates;
import io.github.avgateway.jms.JmsGateway;
import jakarta.jms.ConnectionFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Wires the JMS front-end from whatever {@link VirusScanner}, {@link HistoryRecorder} and {@link
 * IntakeGate} beans the application has: the embedded broker (unless {@code
 * avgateway.jms.mode=EXTERNAL}), the gateway's connection factory, a {@link ScanPipeline} when no
 * other module provides one, and the {@link JmsGateway} itself.
 */
@AutoConfiguration(
    afterName = {
      "io.github.avgateway.core.config.ClamdAutoConfiguration",
      "io.github.avgateway.solr.config.SolrHistoryAutoConfiguration"
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
    if (embedded != null) {
      return new ActiveMQConnectionFactory(embedded.inVmUrl());
    }
    return new ActiveMQConnectionFactory(
        properties.url(), properties.user(), properties.password());
  }

  @Bean
  @ConditionalOnMissingBean
  ScanPipeline scanPipeline(VirusScanner scanner, JmsProperties properties) {
    JmsProperties.Scan scan = properties.scan();
    VerdictCache cache =
        scan.cacheEntries() == 0
            ? VerdictCache.disabled()
            : VerdictCache.bounded(scan.cacheEntries(), scan.cacheTtl());
    String name = scan.gatewayName() != null ? scan.gatewayName() : hostName();
    return new ScanPipeline(scanner, cache, scan.maxPayload().toBytes(), Clock.systemUTC(), name);
  }

  @Bean
  JmsGateway jmsGateway(
      JmsProperties properties,
      @Qualifier(CONNECTION_FACTORY) ConnectionFactory factory,
      ScanPipeline pipeline,
      HistoryRecorder history,
      ObjectProvider<IntakeGate> gates) {
    IntakeGate gate = new IntakeGates(gates.orderedStream().toList());
    return JmsGateway.create(properties, factory, pipeline, history, gate);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "av-gateway";
    }
  }
}
