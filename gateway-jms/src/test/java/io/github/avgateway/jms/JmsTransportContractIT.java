package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.contract.AbstractTransportContractTests;
import io.github.avgateway.core.contract.TransportDriver;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.JmsContractDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The transport contract, run against the JMS gateway (its default intake, Spring JMS listener
 * containers) on its embedded Artemis (persistent journal) with the real clamd (scripts/services.sh
 * start clamd) and the embedded Solr history; outside clients connect over TCP. A clamd that is not
 * running fails the suite (its requests stay unanswered while the clamd readiness gate is down).
 */
@SpringBootTest(classes = GatewayJmsApplication.class)
class JmsTransportContractIT extends AbstractTransportContractTests {

  @Autowired JmsProperties properties;
  @Autowired HistoryQueries history;

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

  /** The default intake takes the requests in Spring JMS listener containers. */
  @Test
  void requestsAreTakenByListenerContainersByDefault() {
    assertThat(properties.intake()).isEqualTo(JmsProperties.Intake.LISTENER_CONTAINER);
    assertThat(Thread.getAllStackTraces().entrySet())
        .as("invoker threads of a DefaultMessageListenerContainer")
        .anyMatch(thread ->
            thread.getKey().getName().startsWith("jms-consumer-")
                && Arrays.stream(thread.getValue())
                    .anyMatch(frame ->
                        frame
                            .getClassName()
                            .startsWith(
                                "org.springframework.jms.listener"
                                    + ".DefaultMessageListenerContainer")));
  }
}
