package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.contract.AbstractTransportContractTests;
import io.github.avgateway.core.contract.TransportDriver;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.intake.JmsGateway;
import io.github.avgateway.jms.support.JmsContractDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The transport contract, run against the JMS gateway (its default intake, Spring JMS listener
 * containers; {@link JmsConsumersContractIT} runs it on the gateway's own consumers) on its
 * embedded Artemis (persistent journal) with the real clamd (scripts/services.sh start clamd) and
 * the embedded Solr history; outside clients connect over TCP. A clamd that is not running fails
 * the suite (its requests stay unanswered while the clamd readiness gate is down).
 */
@SpringBootTest(classes = GatewayJmsApplication.class)
class JmsTransportContractIT extends AbstractTransportContractTests {

  @Autowired JmsProperties properties;
  @Autowired HistoryQueries history;
  @Autowired JmsGateway gateway;

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) throws IOException {
    Path data = Files.createTempDirectory("avgw-jms-contract");
    registry.add("avgateway.jms.url", () -> "tcp://127.0.0.1:" + TestEnv.freePort());
    registry.add("avgateway.jms.embedded.data-dir", () -> data.resolve("artemis").toString());
    registry.add("avgateway.solr.embedded.home", () -> data.resolve("solr").toString());
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
  }

  @Override
  protected TransportDriver createDriver() throws Exception {
    return new JmsContractDriver(
        new ActiveMQConnectionFactory(properties.url()),
        properties.requestQueue(),
        properties.deadLetterQueue(),
        id -> history.byRequestId("jms", id));
  }

  /** The intake the gateway under test runs: the default, Spring JMS listener containers. */
  JmsProperties.Intake expectedIntake() {
    return JmsProperties.Intake.LISTENER_CONTAINER;
  }

  /**
   * The requests of this suite are taken by {@link #expectedIntake()}: this context's gateway runs
   * listener containers, each with a scheduled consumer, and no consumer of its own, or the other
   * way round. Asked of the gateway, not of the JVM's threads: the contexts of other test classes,
   * cached in the same JVM, run either intake.
   */
  @Test
  void requestsAreTakenByTheIntakeUnderTest() {
    JmsGateway.Started started = gateway.started();

    assertThat(properties.intake()).isEqualTo(expectedIntake());
    if (expectedIntake() == JmsProperties.Intake.LISTENER_CONTAINER) {
      assertThat(started.servingContainers()).as("containers serving").isPositive();
      assertThat(started.idleContainers()).as("containers idle").isZero();
      assertThat(started.consumers()).as("consumers of the gateway's own").isZero();
    } else {
      assertThat(started.consumers()).as("consumers of the gateway's own").isPositive();
      assertThat(started.servingContainers() + started.idleContainers())
          .as("listener containers")
          .isZero();
    }
  }
}
