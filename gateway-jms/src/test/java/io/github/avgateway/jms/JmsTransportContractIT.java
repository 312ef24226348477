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
import java.util.List;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.util.ReflectionTestUtils;

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
   * The requests of this suite are taken by {@link #expectedIntake()}: this context's gateway
   * started running listener containers with scheduled consumers and no consumer threads of its
   * own, or the other way round. Asked of the gateway, not of the JVM's threads: the contexts of
   * other test classes, cached in the same JVM, run either intake.
   */
  @Test
  void requestsAreTakenByTheIntakeUnderTest() {
    boolean containers = expectedIntake() == JmsProperties.Intake.LISTENER_CONTAINER;
    List<?> started = startedBy(gateway, containers ? "containers" : "running");
    List<?> other = startedBy(gateway, containers ? "running" : "containers");

    assertThat(properties.intake()).isEqualTo(expectedIntake());
    assertThat(started).as("what the gateway started").isNotEmpty();
    assertThat(other).as("the other intake").isEmpty();
    if (containers) {
      assertThat(started)
          .allSatisfy(container -> {
            DefaultMessageListenerContainer running = (DefaultMessageListenerContainer) container;
            assertThat(running.isRunning()).isTrue();
            assertThat(running.getScheduledConsumerCount()).isPositive();
          });
    }
  }

  /** The gateway's list of the listener containers or consumers it started (a private field). */
  private static List<?> startedBy(JmsGateway gateway, String field) {
    return (List<?>) ReflectionTestUtils.getField(gateway, field);
  }
}
