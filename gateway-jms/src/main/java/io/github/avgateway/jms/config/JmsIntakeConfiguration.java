package io.github.avgateway.jms.config;

import io.github.avgateway.core.config.ConditionalOnScanningMode;
import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.pipeline.IntakeGates;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.port.HistoryStoreGate;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.jms.broker.EmbeddedBroker;
import io.github.avgateway.jms.history.HistoryRoom;
import io.github.avgateway.jms.history.JmsBacklogProbe;
import io.github.avgateway.jms.intake.JmsGateway;
import io.github.avgateway.jms.intake.QueueLookup;
import jakarta.jms.ConnectionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JMS front-end's scanning side: the intake gates as the consumers see them, the history
 * stream's backlog gate, room and probe, and the {@link io.github.avgateway.jms.intake.JmsGateway}
 * with its triage, reply and pipe stages ({@link JmsGatewayFactory}). Everything but {@code
 * avgateway.mode=indexer}: an indexer-only process has no {@link
 * io.github.avgateway.core.pipeline.ScanPipeline} (no clamd), sends no history and so needs no
 * backlog gate or probe. Imported by {@link JmsGatewayAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnScanningMode
class JmsIntakeConfiguration {

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
      @Qualifier(JmsGatewayAutoConfiguration.CONNECTION_FACTORY) ConnectionFactory factory,
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
      @Qualifier(JmsGatewayAutoConfiguration.CONNECTION_FACTORY) ConnectionFactory factory,
      ScanPipeline pipeline,
      HistoryBacklogGate backlog,
      HistoryRoom room,
      QueueLookup lookup,
      @Qualifier("avgatewayJmsIntake") IntakeGates intake,
      ObjectProvider<RequestTracer> tracer) {
    return JmsGatewayFactory.create(
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
