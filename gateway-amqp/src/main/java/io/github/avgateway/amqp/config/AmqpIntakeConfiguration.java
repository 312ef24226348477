package io.github.avgateway.amqp.config;

import io.github.avgateway.amqp.config.AmqpGatewayProperties.QueueType;
import io.github.avgateway.amqp.intake.AmqpIntakeHold;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.intake.ScanBatchListener;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.amqp.triage.AmqpReplyDestinationPolicy;
import io.github.avgateway.amqp.triage.AmqpRequestMapper;
import io.github.avgateway.amqp.triage.AmqpRequestTriage;
import io.github.avgateway.core.config.ConditionalOnScanningMode;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipeline.IntakeGates;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.trace.RequestTracer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The AMQP front-end's intake, triage, reply and pipe stages: the request consumers, the batch
 * listener with its triage, intake hold and history hand-off, every clean-pipe inbox's consumers,
 * and the intake watcher that pauses them. Everything but {@code avgateway.mode=indexer}; imported
 * by {@link AmqpGatewayAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnScanningMode
class AmqpIntakeConfiguration {

  @Bean
  AmqpRequestTriage avgatewayAmqpRequestTriage(AmqpGatewayProperties props) {
    return new AmqpRequestTriage(
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
      AmqpRequestTriage triage,
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
      AmqpRequestTriage triage =
          AmqpRequestTriage.forPipe(
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
      AmqpRequestTriage triage,
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
   * Intake is open while every {@link IntakeGate} bean is up: clamd's readiness (self-test passed,
   * an endpoint up) and the history backlog's. The history store has none: Solr down or behind
   * holds only the indexer, and scanning goes on until the backlog is full.
   */
  @Bean
  IntakeGates avgatewayAmqpIntake(ObjectProvider<IntakeGate> gates) {
    return new IntakeGates("AMQP", gates.orderedStream().toList());
  }
}
