package io.github.avgateway.amqp.config;

import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.core.config.ClamdProperties;
import io.github.avgateway.core.config.GatewayModeProperties;
import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.config.PipelineAutoConfiguration;
import io.github.avgateway.solr.config.SolrHistoryAutoConfiguration;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.amqp.autoconfigure.ConnectionFactoryCustomizer;
import org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration;
import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.util.unit.DataSize;

/**
 * Wires the AMQP front-end: topology, a confirming reply publisher, the history stream and its
 * indexer ({@link AmqpHistoryConfiguration}), and, unless {@code avgateway.mode=indexer}, the batch
 * listener and its consumers, those of every clean-pipe inbox, and the intake watcher that pauses
 * them ({@link AmqpIntakeConfiguration}). Uses the application's {@code VirusScanner} / {@code
 * ScanPipeline}, {@code HistoryRecorder} (for the indexer only) and every {@code IntakeGate} bean;
 * the broker connection is Spring Boot's ({@code spring.rabbitmq.*}), with publisher confirms
 * (correlated) and returns switched on, since acknowledgement depends on them.
 */
@AutoConfiguration(
    after = {
      RabbitAutoConfiguration.class,
      PipelineAutoConfiguration.class,
      SolrHistoryAutoConfiguration.class
    })
@EnableConfigurationProperties({
  AmqpGatewayProperties.class,
  HistoryStreamProperties.class,
  GatewayModeProperties.class
})
@Import({AmqpIntakeConfiguration.class, AmqpHistoryConfiguration.class})
@ConditionalOnProperty(
    prefix = "avgateway.amqp",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
public class AmqpGatewayAutoConfiguration {

  /** Correlated confirms and returns are required; set whatever {@code spring.rabbitmq.*} says. */
  @Bean
  static BeanPostProcessor avgatewayPublisherConfirms() {
    return new PublisherConfirmsPostProcessor();
  }

  /**
   * The RabbitMQ client refuses a body of {@code spring.rabbitmq.max-inbound-message-body-size} (64
   * MiB by default) or more by dropping its whole connection: the request would come back, drop it
   * again, and never be answered. The client takes at least every body the gateway accepts ({@code
   * avgateway.clamd.max-size}), whatever that property says. A body larger still is the broker's to
   * refuse ({@code max_message_size}, set to the gateway's limit in the project's RabbitMQ
   * configuration).
   */
  @Bean
  ConnectionFactoryCustomizer avgatewayInboundBodyLimit(
      RabbitProperties rabbit, ObjectProvider<ClamdProperties> clamd) {
    int limit = inboundBodyLimit(rabbit, PipelineAutoConfiguration.maxSize(clamd.getIfAvailable()));
    return factory -> factory.setMaxInboundMessageBodySize(limit);
  }

  /** The larger of the configured limit and one byte over {@code maxSize} (refused at equal). */
  static int inboundBodyLimit(RabbitProperties rabbit, DataSize maxSize) {
    long configured = rabbit.getMaxInboundMessageBodySize().toBytes();
    return (int) Math.min(Integer.MAX_VALUE, Math.max(configured, maxSize.toBytes() + 1));
  }

  @Bean
  AmqpTopology avgatewayAmqpTopology(
      AmqpGatewayProperties properties, HistoryStreamProperties history) {
    return new AmqpTopology(properties, history);
  }

  @Bean
  @ConditionalOnProperty(
      prefix = "avgateway.amqp",
      name = "declare-topology",
      havingValue = "true",
      matchIfMissing = true)
  Declarables avgatewayAmqpDeclarables(AmqpTopology topology) {
    return topology.declarables();
  }

  @Bean
  AmqpReplyPublisher avgatewayAmqpReplyPublisher(
      ConnectionFactory connectionFactory, AmqpTopology topology, AmqpGatewayProperties props) {
    return new AmqpReplyPublisher(
        connectionFactory, props.deadLetterExchange(), topology.deadLetterRoutingKey());
  }
}
