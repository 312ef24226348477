package io.github.avgateway.solr.config;

import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.solr.HistoryBatchObserver;
import io.github.avgateway.solr.RecorderSettings;
import io.github.avgateway.solr.RetentionSettings;
import io.github.avgateway.solr.RollupSlots;
import io.github.avgateway.solr.SolrHistoryGate;
import io.github.avgateway.solr.SolrHistoryQueries;
import io.github.avgateway.solr.SolrHistoryRecorder;
import io.github.avgateway.solr.SolrHistoryStore;
import io.github.avgateway.solr.SolrRetention;
import io.github.avgateway.solr.SolrRollups;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Solr history store, on unless {@code avgateway.solr.enabled=false}. Beans:
 *
 * <ul>
 *   <li>{@link SolrHistoryStore} — the connection for the configured mode;
 *   <li>{@link SolrHistoryRecorder} — the {@link HistoryRecorder} front-ends call;
 *   <li>{@link SolrHistoryQueries} — the {@link HistoryQueries};
 *   <li>{@link SolrHistoryGate} named {@code solrHistoryGate} — the {@link
 *       io.github.avgateway.core.port.HistoryStoreGate} the history indexer holds on (down while
 *       Solr refuses writes or retention is behind);
 *   <li>{@link SolrRetention} — the scheduled purge, when {@code retention.enabled} and the history
 *       is not a time-routed alias (Solr drops its collections);
 *   <li>{@link SolrRollups} — the per-slot counts kept up to date, when {@code rollup.enabled};
 *   <li>the history meters and, with Spring Boot's health support, health {@code history}.
 * </ul>
 *
 * Beans are closed in reverse order: retention stops, the recorder flushes its queue, then the
 * store closes.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "avgateway.solr.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SolrHistoryProperties.class)
public class SolrHistoryAutoConfiguration {

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  SolrHistoryStore solrHistoryStore(SolrHistoryProperties properties, SolrHistoryGate gate) {
    return SolrStoreFactory.open(properties, gate);
  }

  @Bean
  @ConditionalOnMissingBean
  SolrHistoryGate solrHistoryGate() {
    return new SolrHistoryGate();
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(HistoryRecorder.class)
  SolrHistoryRecorder solrHistoryRecorder(
      SolrHistoryStore store,
      SolrHistoryProperties properties,
      SolrHistoryGate gate,
      ObjectProvider<HistoryBatchObserver> observer) {
    SolrHistoryProperties.Batch batch = properties.batch();
    RecorderSettings settings =
        new RecorderSettings(
            batch.size(),
            batch.maxDelay(),
            batch.queueCapacity(),
            batch.concurrency(),
            properties.commitWithin(),
            properties.requestTimeout(),
            batch.probeInterval());
    return new SolrHistoryRecorder(
        store.client(),
        store.collections(),
        settings,
        gate,
        observer.getIfUnique(() -> HistoryBatchObserver.NONE),
        new RollupSlots(properties.rollup().slot()));
  }

  /** The per-slot counts, kept up to date on schedule. */
  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnBooleanProperty(name = "avgateway.solr.rollup.enabled", matchIfMissing = true)
  @ConditionalOnMissingBean
  SolrRollups solrHistoryRollups(SolrHistoryStore store, SolrHistoryProperties properties) {
    Duration visible = properties.commitWithin().multipliedBy(2);
    return new SolrRollups(
        store.client(),
        store.collections(),
        new RollupSlots(properties.rollup().slot()),
        new SolrRollups.Schedule(properties.rollup().interval(), visible.plusSeconds(10), visible),
        Clock.systemUTC());
  }

  /** The history meters, bound by Spring Boot to its meter registry when there is one. */
  @Bean
  @ConditionalOnMissingBean
  SolrHistoryMeters solrHistoryMeters(ObjectProvider<SolrHistoryRecorder> recorder) {
    return new SolrHistoryMeters(recorder::getIfAvailable);
  }

  /** Health {@code history}, read from the gate the history indexer holds on. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  static class HistoryHealth {

    @Bean
    HealthIndicator historyHealthIndicator(SolrHistoryGate gate, SolrHistoryProperties properties) {
      return new SolrHistoryHealthIndicator(gate, properties.collection());
    }
  }

  @Bean
  @ConditionalOnMissingBean(HistoryQueries.class)
  SolrHistoryQueries solrHistoryQueries(SolrHistoryStore store, SolrHistoryProperties properties) {
    return new SolrHistoryQueries(
        store.client(),
        store.collections(),
        properties.queryTimeout(),
        new RollupSlots(properties.rollup().slot()));
  }

  /**
   * The purge, unless retention is off or the history is a time-routed alias (there Solr drops
   * whole collections: {@code router.autoDeleteAge}, set from {@code retention.max-age}).
   */
  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnBooleanProperty(name = "avgateway.solr.retention.enabled", matchIfMissing = true)
  @ConditionalOnBooleanProperty(
      name = "avgateway.solr.cloud.time-routed.enabled",
      havingValue = false,
      matchIfMissing = true)
  @ConditionalOnMissingBean
  SolrRetention solrHistoryRetention(
      SolrHistoryStore store, SolrHistoryProperties properties, SolrHistoryGate gate) {
    SolrHistoryProperties.Retention retention = properties.retention();
    RetentionSettings settings =
        new RetentionSettings(
            retention.maxAge(), retention.interval(), retention.budget(), retention.slice());
    return new SolrRetention(
        store.client(),
        store.collection(),
        settings,
        properties.commitWithin(),
        gate,
        Clock.systemUTC());
  }
}
