package io.github.avgateway.core.config.ops;

import io.github.avgateway.core.config.metrics.HistoryStreamMeters;
import io.github.avgateway.core.history.HistoryBacklog;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.IndexerStatus;
import io.github.avgateway.core.port.Availability;
import java.util.Locale;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Operating the history stream (docs/history-stream.md), for whichever of its beans a front-end
 * defines: health {@code historyBacklog} (DOWN while the backlog is at its bound and intake is
 * paused; part of readiness), health {@code historyIndexer} (UP, or DEGRADED with the store's
 * reason and the backlog while the indexer backs off; not part of readiness: scanning goes on), and
 * the history stream's meters.
 */
@AutoConfiguration(
    // The front-ends define the beans its conditions look for.
    afterName = {
      "io.github.avgateway.jms.config.JmsGatewayAutoConfiguration",
      "io.github.avgateway.amqp.config.AmqpGatewayAutoConfiguration"
    })
public class HistoryStreamOpsAutoConfiguration {

  /** Health status of an indexer that backs off because the store refuses. */
  public static final Status DEGRADED = new Status("DEGRADED");

  @Bean
  HistoryStreamMeters avgatewayHistoryStreamMeters(
      ObjectProvider<IndexerStatus> status, ObjectProvider<HistoryBacklog> backlog) {
    return new HistoryStreamMeters(status.getIfAvailable(), backlog.getIfAvailable());
  }

  /** The health indicators, with Spring Boot's health support. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  static class HealthIndicators {

    @Bean
    @ConditionalOnBean(HistoryBacklogGate.class)
    HealthIndicator historyBacklogHealthIndicator(
        HistoryBacklogGate gate, ObjectProvider<HistoryBacklog> backlog) {
      return () ->
          withBacklog(AvailabilityHealth.of(gate.intake()), backlog.getIfAvailable()).build();
    }

    @Bean
    @ConditionalOnBean(IndexerStatus.class)
    HealthIndicator historyIndexerHealthIndicator(
        IndexerStatus status, ObjectProvider<HistoryBacklog> backlog) {
      return () -> indexer(status, backlog.getIfAvailable());
    }
  }

  /** UP while indexing, DEGRADED with the store's reason and the backlog while backing off. */
  static Health indexer(IndexerStatus status, HistoryBacklog backlog) {
    Health.Builder builder =
        switch (status.indexing()) {
          case Availability.Up up -> Health.up();
          case Availability.Down down ->
              Health.status(DEGRADED).withDetail("reason", down.why() + backlogWords(backlog));
        };
    return withBacklog(builder, backlog)
        .withDetail("documentsIndexed", status.documentsIndexed())
        .withDetail("lagSeconds", status.lag().toSeconds())
        .build();
  }

  private static Health.Builder withBacklog(Health.Builder builder, HistoryBacklog backlog) {
    long messages = backlog == null ? -1 : backlog.messages();
    return messages < 0 ? builder : builder.withDetail("backlogMessages", messages);
  }

  private static String backlogWords(HistoryBacklog backlog) {
    long messages = backlog == null ? -1 : backlog.messages();
    return messages < 0
        ? ""
        : String.format(Locale.ROOT, "; backlog %,d history messages", messages);
  }
}
