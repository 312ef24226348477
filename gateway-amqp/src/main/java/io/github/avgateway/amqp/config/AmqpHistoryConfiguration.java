package io.github.avgateway.amqp.config;

import io.github.avgateway.amqp.history.AmqpBacklogProbe;
import io.github.avgateway.amqp.history.AmqpHistoryBacklog;
import io.github.avgateway.amqp.history.AmqpHistoryBuffer;
import io.github.avgateway.amqp.history.AmqpHistoryIndexer;
import io.github.avgateway.amqp.history.AmqpHistoryStream;
import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.history.Backoff;
import io.github.avgateway.core.history.HistoryBacklog;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.HistoryIndexer;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.history.IndexerStatus;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.HistoryStoreGate;
import java.time.Clock;
import java.time.Duration;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The history stream on RabbitMQ (docs/history-stream.md): what the scan path publishes to ({@link
 * HistoryStream}, or {@link AmqpHistoryStream#OFF} with {@code avgateway.history.enabled=false}),
 * the backlog gate with its queue count and probe, and, unless {@code
 * avgateway.history.indexer.enabled=false} or the process has no history store, the indexer
 * draining the stream into the store. Health and meters come from core's {@code
 * HistoryStreamOpsAutoConfiguration}, which reads the beans defined here.
 */
@Configuration(proxyBeanMethods = false)
@Import(AmqpHistoryConfiguration.Indexer.class)
class AmqpHistoryConfiguration {

  /** The history stream's bound as the scan path sees it (an intake gate; readiness). */
  @Bean
  HistoryBacklogGate avgatewayHistoryBacklog(HistoryStreamProperties history) {
    return new HistoryBacklogGate(history.queue());
  }

  @Bean
  @ConditionalOnBooleanProperty(name = "avgateway.history.enabled", matchIfMissing = true)
  HistoryBacklog avgatewayAmqpHistoryBacklog(
      AmqpAdmin admin, HistoryStreamProperties history, AmqpGatewayProperties props) {
    return new AmqpHistoryBacklog(admin, history.queue(), props.intakeCheckInterval());
  }

  @Bean
  @ConditionalOnBooleanProperty(name = "avgateway.history.enabled", matchIfMissing = true)
  AmqpBacklogProbe avgatewayAmqpBacklogProbe(
      HistoryBacklog backlog, HistoryBacklogGate gate, AmqpGatewayProperties props) {
    return new AmqpBacklogProbe(backlog, gate, props.intakeCheckInterval());
  }

  /**
   * The history queue behind the buffer that gathers several batches' documents into one message;
   * closed (what is buffered published) after the consumers that use it stopped.
   */
  @Bean
  HistoryStream<PublishOutcome> avgatewayHistoryStream(
      HistoryBacklogGate gate, AmqpReplyPublisher publisher, HistoryStreamProperties history) {
    if (!history.enabled()) {
      return AmqpHistoryStream.OFF;
    }
    AmqpHistoryStream queue =
        new AmqpHistoryStream(publisher, history.queue(), gate, Clock.systemUTC());
    return history.buffer().enabled()
        ? new AmqpHistoryBuffer(queue, publisher, history.buffer())
        : queue;
  }

  /** The indexer of this process: one consumer taking batches of history messages. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty(name = "avgateway.history.enabled", matchIfMissing = true)
  @ConditionalOnBooleanProperty(name = "avgateway.history.indexer.enabled", matchIfMissing = true)
  @ConditionalOnBean(HistoryRecorder.class)
  static class Indexer {

    /** How long a poll of the history queue gathers messages before indexing what it has. */
    private static final Duration INDEXER_BATCH_WAIT = Duration.ofMillis(200);

    @Bean
    IndexerStatus avgatewayHistoryIndexerStatus() {
      return new IndexerStatus(Clock.systemUTC());
    }

    @Bean
    AmqpHistoryIndexer avgatewayHistoryIndexer(
        HistoryRecorder store,
        ObjectProvider<HistoryStoreGate> storeGate,
        AmqpReplyPublisher publisher,
        HistoryStreamProperties history,
        AmqpGatewayProperties props,
        IndexerStatus status) {
      HistoryStreamProperties.Indexer settings = history.indexer();
      HistoryStoreGate gate = storeGate.getIfAvailable(() -> HistoryStoreGate.ALWAYS_ACCEPTING);
      return new AmqpHistoryIndexer(
          new HistoryIndexer(store, gate, settings.acceptTimeout(), status),
          publisher,
          history.deadLetterQueue(),
          new Backoff(settings.backoffFirst(), settings.backoffMax()),
          props.pauseHoldLimit(),
          props.confirmTimeout(),
          props.queueType() == AmqpGatewayProperties.QueueType.QUORUM);
    }

    @Bean
    SimpleMessageListenerContainer avgatewayHistoryIndexerContainer(
        ConnectionFactory connectionFactory,
        AmqpHistoryIndexer indexer,
        HistoryStreamProperties history,
        AmqpGatewayProperties props) {
      int batchSize = history.indexer().batchSize();
      return BatchContainers.create(
          connectionFactory,
          history.queue(),
          1,
          batchSize,
          batchSize,
          INDEXER_BATCH_WAIT,
          props.recoveryInterval(),
          indexer);
    }

    @Bean
    HistoryIndexerRunner avgatewayHistoryIndexerRunner(
        SimpleMessageListenerContainer avgatewayHistoryIndexerContainer,
        AmqpHistoryIndexer indexer) {
      return new HistoryIndexerRunner(avgatewayHistoryIndexerContainer, indexer);
    }
  }
}
