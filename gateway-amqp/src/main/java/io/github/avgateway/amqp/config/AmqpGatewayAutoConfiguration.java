package io.github.avgateway.amqp.config;

import io.github.avgateway.amqp.AmqpIntakeHold;
import io.github.avgateway.amqp.AmqpReplyDestinationPolicy;
import io.github.avgateway.amqp.AmqpReplyPublisher;
import io.github.avgateway.amqp.AmqpRequestMapper;
import io.github.avgateway.amqp.AmqpTopology;
import io.github.avgateway.amqp.IntakeWatcher;
import io.github.avgateway.amqp.PublishOutcome;
import io.github.avgateway.amqp.RequestTriage;
import io.github.avgateway.amqp.ScanBatchListener;
import io.github.avgateway.amqp.config.AmqpGatewayProperties.QueueType;
import io.github.avgateway.core.config.ClamdProperties;
import io.github.avgateway.core.config.ConditionalOnScanningMode;
import io.github.avgateway.core.config.GatewayModeProperties;
import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.config.PipelineAutoConfiguration;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipeline.IntakeGates;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.solr.config.SolrHistoryAutoConfiguration;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.amqp.autoconfigure.ConnectionFactoryCustomizer;
import org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration;
import org.springframework.boot.amqp.autoconfigure.RabbitProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.util.unit.DataSize;

/**
 * Wires the AMQP front-end: topology, a confirming reply publisher, the history stream and its
 * indexer ({@link AmqpHistoryConfiguration}), and, unless {@code avgateway.mode=indexer}, the batch
 * listener and its consumers, those of every clean-pipe inbox, and the intake watcher that pauses
 * them. Uses the application's {@code VirusScanner} / {@code ScanPipeline}, {@code HistoryRecorder}
 * (for the indexer only) and every {@code IntakeGate} bean; the broker connection is Spring Boot's
 * ({@code spring.rabbitmq.*}), with publisher confirms (correlated) and returns switched on, since
 * acknowledgement depends on them.
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
@Import(AmqpHistoryConfiguration.class)
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

  /** The request consumers: everything but {@code avgateway.mode=indexer}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnScanningMode
  static class Scanning {

    @Bean
    RequestTriage avgatewayAmqpRequestTriage(AmqpGatewayProperties props) {
      return new RequestTriage(
          new AmqpRequestMapper(), replyPolicy(props), deliveryLimit(props), Clock.systemUTC());
    }

    /** Replies never go to the gateway's own queues, a pipe's inbox and outlets included. */
    private static AmqpReplyDestinationPolicy replyPolicy(AmqpGatewayProperties props) {
      Set<String> own = new HashSet<>(props.pipeQueueNames());
      own.add(props.requestQueue());
      own.add(props.deadLetterQueue());
      return new AmqpReplyDestinationPolicy(
          props.compiledReplyToPattern(), props.defaultReplyQueueOrNull(), own);
    }

    private static long deliveryLimit(AmqpGatewayProperties props) {
      return props.queueType() == QueueType.QUORUM ? props.deliveryLimit() : Long.MAX_VALUE;
    }

    @Bean
    AmqpIntakeHold avgatewayAmqpIntakeHold(IntakeGates intake, AmqpGatewayProperties props) {
      return new AmqpIntakeHold(intake.gate(), props.intakeCheckInterval(), props.pauseHoldLimit());
    }

    @Bean
    ScanBatchListener avgatewayAmqpListener(
        RequestTriage triage,
        ScanPipeline pipeline,
        AmqpReplyPublisher publisher,
        HistoryStream<PublishOutcome> history,
        AmqpIntakeHold hold,
        AmqpGatewayProperties props,
        ObjectProvider<RequestTracer> tracer) {
      return listener(triage, pipeline, publisher, history, hold, props, tracer);
    }

    @Bean
    SimpleMessageListenerContainer avgatewayAmqpContainer(
        ConnectionFactory connectionFactory,
        ScanBatchListener listener,
        AmqpGatewayProperties props) {
      return container(connectionFactory, props.requestQueue(), props, listener);
    }

    /**
     * One consumer container per clean-pipe inbox ({@code avgateway.amqp.pipes}), each with the
     * request consumers' settings and a batch listener of its own whose items forward instead of
     * replying; empty when no pipe is configured.
     */
    @Bean
    PipeContainers avgatewayAmqpPipeContainers(
        ConnectionFactory connectionFactory,
        ScanPipeline pipeline,
        AmqpReplyPublisher publisher,
        HistoryStream<PublishOutcome> history,
        AmqpIntakeHold hold,
        AmqpGatewayProperties props,
        ApplicationContext context,
        ObjectProvider<RequestTracer> tracer) {
      List<SimpleMessageListenerContainer> containers = new ArrayList<>();
      for (Pipe pipe : props.pipes()) {
        RequestTriage triage =
            RequestTriage.forPipe(
                new AmqpRequestMapper(),
                replyPolicy(props),
                deliveryLimit(props),
                Clock.systemUTC(),
                pipe);
        ScanBatchListener listener =
            listener(triage, pipeline, publisher, history, hold, props, tracer);
        SimpleMessageListenerContainer container =
            container(connectionFactory, pipe.inbox(), props, listener);
        container.setApplicationContext(context);
        container.setApplicationEventPublisher(context);
        container.setBeanName("avgatewayAmqpPipeContainer-" + pipe.inbox());
        containers.add(container);
      }
      return new PipeContainers(containers);
    }

    /**
     * A batch listener with the request consumers' confirm and history timeouts, tracing requests
     * when tracing is on.
     */
    private static ScanBatchListener listener(
        RequestTriage triage,
        ScanPipeline pipeline,
        AmqpReplyPublisher publisher,
        HistoryStream<PublishOutcome> history,
        AmqpIntakeHold hold,
        AmqpGatewayProperties props,
        ObjectProvider<RequestTracer> tracer) {
      return new ScanBatchListener(
          triage,
          pipeline,
          publisher,
          history,
          hold,
          props.confirmTimeout(),
          props.historyTimeout(),
          tracer.getIfAvailable(() -> RequestTracer.NONE));
    }

    /** A consumer container on {@code queue} with the request consumers' settings. */
    private static SimpleMessageListenerContainer container(
        ConnectionFactory connectionFactory,
        String queue,
        AmqpGatewayProperties props,
        ScanBatchListener listener) {
      return BatchContainers.create(
          connectionFactory,
          queue,
          props.consumers(),
          props.prefetch(),
          props.batchSize(),
          props.batchWait(),
          props.recoveryInterval(),
          listener);
    }

    @Bean
    IntakeWatcher avgatewayAmqpIntakeWatcher(
        @Qualifier("avgatewayAmqpContainer") SimpleMessageListenerContainer container,
        PipeContainers pipes,
        ScanBatchListener listener,
        IntakeGates intake,
        AmqpIntakeHold hold,
        ConnectionFactory connectionFactory,
        AmqpGatewayProperties props) {
      String consumes =
          String.format(
              "request queue %s%s on %s:%d (%d consumers, batches of up to %d)",
              props.requestQueue(),
              props.pipes().isEmpty()
                  ? ""
                  : ", pipe inboxes "
                      + String.join(", ", props.pipes().stream().map(Pipe::inbox).toList()),
              connectionFactory.getHost(),
              connectionFactory.getPort(),
              props.consumers(),
              props.batchSize());
      List<SimpleMessageListenerContainer> all = new ArrayList<>();
      all.add(container);
      all.addAll(pipes.containers());
      IntakeWatcher watcher =
          new IntakeWatcher(intake.gate(), all, props.intakeCheckInterval(), hold, consumes);
      List<ScanBatchListener> listeners = new ArrayList<>();
      listeners.add(listener);
      pipes.containers().stream()
          .map(c -> (ScanBatchListener) c.getMessageListener())
          .forEach(listeners::add);
      listeners.forEach(each -> each.onIntakeTrouble(watcher::checkSoon));
      watcher.beforeConsumersStop(
          () -> listeners.forEach(each -> each.awaitAcknowledged(ScanBatchListener.STOP_WAIT)));
      return watcher;
    }

    /**
     * Intake is open while every {@link IntakeGate} bean is up: clamd's readiness (self-test
     * passed, an endpoint up) and the history backlog's. The history store has none: Solr down or
     * behind holds only the indexer, and scanning goes on until the backlog is full.
     */
    @Bean
    IntakeGates avgatewayAmqpIntake(ObjectProvider<IntakeGate> gates) {
      return new IntakeGates("AMQP", gates.orderedStream().toList());
    }
  }
}
