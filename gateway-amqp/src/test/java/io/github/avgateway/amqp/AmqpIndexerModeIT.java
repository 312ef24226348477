package io.github.avgateway.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.intake.ScanBatchListener;
import io.github.avgateway.amqp.testing.GatewayItSupport;
import io.github.avgateway.amqp.testing.QueueInbox;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.amqp.testing.TestGateway;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.InMemoryHistory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code avgateway.mode=indexer} on the real RabbitMQ: a gateway with its indexer switched off
 * answers requests, and a second process in indexer mode (no scanner, no clamd settings) drains
 * their history into its store, one document per request; the gateway records nothing itself.
 */
@SpringBootTest(classes = TestGateway.class)
class AmqpIndexerModeIT extends GatewayItSupport {

  private static final Names NAMES = Names.unique("indexermode");
  private static final int REQUESTS = 20;

  private ConfigurableApplicationContext indexerProcess;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    register(registry, NAMES);
    registry.add("avgateway.history.indexer.enabled", () -> false);
  }

  @Override
  protected Names names() {
    return NAMES;
  }

  /** The indexer process's only dependency: the store it writes to. */
  @TestConfiguration(proxyBeanMethods = false)
  static class IndexerStore {
    @Bean
    InMemoryHistory inMemoryHistory() {
      return new InMemoryHistory();
    }
  }

  @BeforeAll
  void startIndexerProcess() {
    indexerProcess =
        new SpringApplicationBuilder(GatewayAmqpApplication.class, IndexerStore.class)
            .run(
                "--avgateway.mode=indexer",
                "--server.port=0",
                "--avgateway.solr.enabled=false",
                "--spring.rabbitmq.port=" + RabbitIt.port(),
                "--avgateway.amqp.request-queue=" + NAMES.requests(),
                "--avgateway.amqp.dead-letter-exchange=" + NAMES.dlx(),
                "--avgateway.amqp.dead-letter-queue=" + NAMES.dlq(),
                "--avgateway.history.queue=" + NAMES.history(),
                "--avgateway.history.dead-letter-queue=" + NAMES.historyDlq());
  }

  @AfterAll
  void stopIndexerProcess() {
    if (indexerProcess != null) {
      indexerProcess.close();
    }
  }

  @Test
  void theGatewayScansAndTheIndexerProcessIndexesEveryRequestOnce() {
    assertThat(indexer).as("the gateway's own indexer is off").isNull();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < REQUESTS; i++) {
      ids.add(send(bytes("request " + i), NAMES.replies(), null));
    }
    for (String id : ids) {
      replies.await(QueueInbox.correlationId(id), WAIT);
    }

    InMemoryHistory indexed = indexerProcess.getBean(InMemoryHistory.class);
    await().atMost(WAIT).until(() -> indexed.size() == REQUESTS);
    assertThat(ids).allMatch(id -> indexed.find("amqp", id).isPresent());
    assertThat(history.size()).as("the gateway's own store").isZero();
  }

  @Test
  void theIndexerProcessRunsNoConsumerAndIsReadyWithoutClamd() {
    assertThat(indexerProcess.getBeansOfType(ScanBatchListener.class)).isEmpty();
    assertThat(indexerProcess.getBeansOfType(IntakeWatcher.class)).isEmpty();
    assertThat(indexerProcess.getBeansOfType(ScanPipeline.class)).isEmpty();
    assertThat(indexerProcess.getBeansOfType(ClamdScanner.class)).isEmpty();
    assertThat(indexerProcess.getBeansOfType(HistoryIndexerRunner.class)).hasSize(1);

    HttpProbe http =
        new HttpProbe(
            indexerProcess.getEnvironment().getProperty("local.server.port", Integer.class));
    await().atMost(WAIT).until(() -> http.get("/actuator/health/readiness").status() == 200);
    assertThat(http.get("/actuator/health/readiness").body())
        .contains("\"rabbit\"")
        .contains("\"historyBacklog\"")
        .doesNotContain("clamd");
  }
}
