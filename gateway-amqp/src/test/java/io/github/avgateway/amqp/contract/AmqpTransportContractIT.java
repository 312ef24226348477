package io.github.avgateway.amqp.contract;

import io.github.avgateway.amqp.GatewayAmqpApplication;
import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.contract.AbstractTransportContractTests;
import io.github.avgateway.core.contract.TransportDriver;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.testing.TestEnv;
import org.junit.jupiter.api.AfterAll;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The shared transport contract against the real AMQP gateway application: the real RabbitMQ, the
 * real clamd (the services script's, with the project's offline signatures) and a real Solr
 * (embedded, in a fresh directory under {@code target/}). History reaches Solr through the history
 * stream and the gateway's own indexer.
 */
@SpringBootTest(classes = GatewayAmqpApplication.class)
@DirtiesContext
class AmqpTransportContractIT extends AbstractTransportContractTests {

  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "contract.requests." + SUFFIX;
  private static final String DLX = "contract.dlx." + SUFFIX;
  private static final String DLQ = "contract.dead." + SUFFIX;
  private static final String HISTORY = "contract.history." + SUFFIX;
  private static final String HISTORY_DLQ = "contract.history.dlq." + SUFFIX;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    registry.add("spring.rabbitmq.port", RabbitIt::port);
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("avgateway.solr.mode", () -> "embedded");
    registry.add("avgateway.solr.embedded.home", () -> "target/contract-solr-" + SUFFIX);
    registry.add("avgateway.amqp.request-queue", () -> REQUESTS);
    registry.add("avgateway.amqp.dead-letter-exchange", () -> DLX);
    registry.add("avgateway.amqp.dead-letter-queue", () -> DLQ);
    registry.add("avgateway.history.queue", () -> HISTORY);
    registry.add("avgateway.history.dead-letter-queue", () -> HISTORY_DLQ);
  }

  @Autowired HistoryQueries queries;
  @Autowired AmqpAdmin admin;
  @Autowired IntakeWatcher watcher;
  @Autowired HistoryIndexerRunner indexer;
  private CachingConnectionFactory connectionFactory;

  @Override
  protected TransportDriver createDriver() {
    connectionFactory = RabbitIt.connectionFactory();
    return new AmqpTransportDriver(
        connectionFactory, REQUESTS, DLQ, id -> queries.byRequestId("amqp", id));
  }

  @AfterAll
  void deleteTopology() {
    // Stop consuming first: a running container would declare a deleted queue again.
    watcher.stop();
    indexer.stop();
    admin.deleteQueue(REQUESTS);
    admin.deleteQueue(DLQ);
    admin.deleteQueue(HISTORY);
    admin.deleteQueue(HISTORY_DLQ);
    admin.deleteExchange(DLX);
    if (connectionFactory != null) {
      connectionFactory.destroy();
    }
  }
}
