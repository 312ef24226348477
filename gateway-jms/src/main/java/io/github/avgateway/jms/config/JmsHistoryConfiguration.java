package io.github.avgateway.jms.config;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.history.Backoff;
import io.github.avgateway.core.history.HistoryIndexer;
import io.github.avgateway.core.history.IndexerStatus;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.HistoryStoreGate;
import io.github.avgateway.jms.history.JmsHistoryIndexer;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JMS front-end's history indexer: on unless history is off or {@code
 * avgateway.history.indexer.enabled=false}; writes to the history store ({@link
 * io.github.avgateway.core.port.HistoryRecorder}, Solr unless the application defines another).
 * Imported by {@link JmsGatewayAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "avgateway.history.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "avgateway.history.indexer.enabled", matchIfMissing = true)
class JmsHistoryConfiguration {

  @Bean
  IndexerStatus avgatewayHistoryIndexerStatus() {
    return new IndexerStatus(Clock.systemUTC());
  }

  @Bean
  JmsHistoryIndexer avgatewayJmsHistoryIndexer(
      @Qualifier(JmsGatewayAutoConfiguration.CONNECTION_FACTORY) ConnectionFactory factory,
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
