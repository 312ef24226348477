package io.github.avgateway.core.config.ops;

import io.github.avgateway.core.config.metrics.HistoryStreamMeters;
import io.github.avgateway.core.history.BacklogSize;
import io.github.avgateway.core.history.HistoryBacklog;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.IndexerStatus;
import io.github.avgateway.core.port.Availability;
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

  /**
   * The backlog where the front-end can count it: the broker's count and, from the sizes of the
   * history messages this process sent or indexed, about how many documents that is.
   */
  @Bean
  @ConditionalOnBean(HistoryBacklog.class)
  BacklogSize avgatewayHistoryBacklogSize(
      HistoryBacklog backlog,
      ObjectProvider<HistoryBacklogGate> gate,
      ObjectProvider<IndexerStatus> status) {
    return new BacklogSize(backlog, gate.getIfAvailable(), status.getIfAvailable());
  }

  @Bean
  HistoryStreamMeters avgatewayHistoryStreamMeters(
      ObjectProvider<IndexerStatus> status, ObjectProvider<BacklogSize> size) {
    return new HistoryStreamMeters(status.getIfAvailable(), size.getIfAvailable());
  }

  /** The health indicators, with Spring Boot's health support. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  static class HealthIndicators {

    @Bean
    @ConditionalOnBean(HistoryBacklogGate.class)
    HealthIndicator historyBacklogHealthIndicator(
        HistoryBacklogGate gate, ObjectProvider<BacklogSize> size) {
      BacklogSize backlog = size.getIfAvailable();
      return () -> withBacklog(AvailabilityHealth.of(gate.intake()), backlog).build();
    }

    @Bean
    @ConditionalOnBean(IndexerStatus.class)
    HealthIndicator historyIndexerHealthIndicator(
        IndexerStatus status, ObjectProvider<BacklogSize> size) {
      BacklogSize backlog = size.getIfAvailable();
      return () -> indexer(status, backlog);
    }
  }

  /**
   * UP while indexing, DEGRADED with the store's reason and the backlog while backing off.
   *
   * @param size the backlog, or null when the front-end cannot count it
   */
  static Health indexer(IndexerStatus status, BacklogSize size) {
    Health.Builder builder =
        switch (status.indexing()) {
          case Availability.Up up -> Health.up();
          case Availability.Down down ->
              Health.status(DEGRADED).withDetail("reason", reason(down.why(), size));
        };
    return withBacklog(builder, size)
        .withDetail("documentsIndexed", status.documentsIndexed())
        .withDetail("lagSeconds", status.lag().toSeconds())
        .build();
  }

  private static String reason(String why, BacklogSize size) {
    String backlog = size == null ? "" : size.words();
    return backlog.isEmpty() ? why : why + "; " + backlog;
  }

  private static Health.Builder withBacklog(Health.Builder builder, BacklogSize size) {
    long messages = size == null ? -1 : size.messages();
    if (messages < 0) {
      return builder;
    }
    builder.withDetail("backlogMessages", messages);
    long documents = size.documents();
    return documents < 0 ? builder : builder.withDetail("backlogDocumentsEstimate", documents);
  }
}
