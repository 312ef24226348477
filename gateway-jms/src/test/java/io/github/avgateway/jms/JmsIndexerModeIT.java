package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.history.JmsBacklogProbe;
import io.github.avgateway.jms.history.JmsHistoryIndexer;
import io.github.avgateway.jms.intake.JmsGateway;
import io.github.avgateway.jms.support.FakeDependencies;
import io.github.avgateway.jms.support.Inbox;
import io.github.avgateway.jms.support.JmsContractDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * {@code avgateway.mode=indexer}: a gateway with the embedded broker and its indexer switched off
 * answers requests; a second process in indexer mode on that broker ({@code
 * avgateway.jms.mode=EXTERNAL}; no scanner, no clamd settings) runs no scanning consumer, is ready
 * without clamd, and drains the requests' history into its store, one document per request. The
 * gateway's own store stays empty.
 */
class JmsIndexerModeIT {

  private static final int REQUESTS = 20;
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  /** The indexer process's only dependency: the store it writes to. */
  @TestConfiguration(proxyBeanMethods = false)
  static class IndexerStore {
    @Bean
    InMemoryHistory inMemoryHistory() {
      return new InMemoryHistory();
    }
  }

  @Test
  void theGatewayScansAndTheIndexerProcessIndexesEveryRequestOnce() throws Exception {
    String url = "tcp://127.0.0.1:" + TestEnv.freePort();
    try (ConfigurableApplicationContext gateway =
            new SpringApplicationBuilder(GatewayJmsApplication.class, FakeDependencies.class)
                .run(
                    "--avgateway.jms.url=" + url,
                    "--avgateway.jms.embedded.data-dir=" + dir.resolve("artemis"),
                    "--avgateway.jms.embedded.persistent=false",
                    "--avgateway.clamd.enabled=false",
                    "--avgateway.solr.enabled=false",
                    "--avgateway.history.indexer.enabled=false");
        ConfigurableApplicationContext indexer =
            new SpringApplicationBuilder(GatewayJmsApplication.class, IndexerStore.class)
                .run(
                    "--avgateway.mode=indexer",
                    "--avgateway.jms.mode=EXTERNAL",
                    "--avgateway.jms.url=" + url,
                    "--avgateway.solr.enabled=false")) {
      assertThat(gateway.getBeansOfType(JmsHistoryIndexer.class))
          .as("the gateway's own indexer is off")
          .isEmpty();
      assertIndexerOnly(indexer);

      Inbox inbox = new Inbox();
      List<String> ids = new ArrayList<>();
      List<String> correlationIds = new ArrayList<>();
      try (JmsContractDriver driver = driver(url, gateway)) {
        driver.open(inbox::reply, inbox::deadLetter);
        for (int i = 0; i < REQUESTS; i++) {
          String correlationId = "indexer-mode-" + UUID.randomUUID();
          byte[] body = i % 2 == 0 ? ContractFiles.clean(i) : ContractFiles.eicar();
          ids.add(driver.send(new ContractRequest(body, "f" + i, correlationId, true)));
          correlationIds.add(correlationId);
        }
        for (int i = 0; i < REQUESTS; i++) {
          Verdict expected = i % 2 == 0 ? Verdict.CLEAN : Verdict.INFECTED;
          assertThat(inbox.awaitReply(correlationIds.get(i)).verdict()).isEqualTo(expected.name());
        }
      }

      InMemoryHistory indexed = indexer.getBean(InMemoryHistory.class);
      await().atMost(WAIT).until(() -> indexed.size() == REQUESTS);
      assertThat(ids).allMatch(id -> indexed.find("jms", id).isPresent());
      assertThat(gateway.getBean(InMemoryHistory.class).size())
          .as("the gateway's own store")
          .isZero();
    }
  }

  /** No scanning consumer, no backlog gate or probe, no clamd; the indexer runs; ready. */
  private static void assertIndexerOnly(ConfigurableApplicationContext indexer) {
    assertThat(indexer.getBeansOfType(JmsGateway.class)).isEmpty();
    assertThat(indexer.getBeansOfType(JmsBacklogProbe.class)).isEmpty();
    assertThat(indexer.getBeansOfType(HistoryBacklogGate.class)).isEmpty();
    assertThat(indexer.getBeansOfType(ScanPipeline.class)).isEmpty();
    assertThat(indexer.getBeansOfType(ClamdScanner.class)).isEmpty();
    assertThat(indexer.getBean(JmsHistoryIndexer.class).isRunning()).isTrue();

    HttpProbe http =
        new HttpProbe(indexer.getEnvironment().getProperty("local.server.port", Integer.class));
    await().atMost(WAIT).until(() -> http.get("/actuator/health/readiness").status() == 200);
    assertThat(http.get("/actuator/health/readiness").body())
        .contains("\"jms\"")
        .doesNotContain("clamd")
        .doesNotContain("historyBacklog");
  }

  private static JmsContractDriver driver(String url, ConfigurableApplicationContext gateway)
      throws Exception {
    JmsProperties properties = gateway.getBean(JmsProperties.class);
    return new JmsContractDriver(
        new ActiveMQConnectionFactory(url),
        properties.requestQueue(),
        properties.deadLetterQueue(),
        id -> gateway.getBean(InMemoryHistory.class).find("jms", id));
  }
}
