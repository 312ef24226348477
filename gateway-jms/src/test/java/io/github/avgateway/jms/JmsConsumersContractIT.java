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
 * The transport contract through the gateway's own consumers ({@code
 * avgateway.jms.intake=consumers}): CLEAN and INFECTED (EICAR) replies, dead-letters and one
 * history document per request, against the embedded Artemis (persistent journal), the real clamd
 * (scripts/services.sh start clamd) and the embedded Solr history, as {@link
 * JmsTransportContractIT} runs it through the default, Spring JMS listener containers.
 */
@SpringBootTest(classes = GatewayJmsApplication.class)
class JmsConsumersContractIT extends AbstractTransportContractTests {

  @Autowired JmsProperties properties;
  @Autowired HistoryQueries history;

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) throws IOException {
    Path data = Files.createTempDirectory("avgw-jms-consumers");
    registry.add("avgateway.jms.intake", () -> "consumers");
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

  /** The requests of this suite are taken by the gateway's own consumer threads. */
  @Test
  void requestsAreTakenByTheGatewaysOwnConsumers() {
    assertThat(properties.intake()).isEqualTo(JmsProperties.Intake.CONSUMERS);
    assertThat(Thread.getAllStackTraces().entrySet())
        .as("consumer threads running BatchConsumer")
        .anyMatch(thread ->
            thread.getKey().getName().startsWith("jms-consumer-")
                && Arrays.stream(thread.getValue())
                    .anyMatch(frame ->
                        frame
                            .getClassName()
                            .equals("io.github.avgateway.jms.intake.BatchConsumer")))
        .noneMatch(thread ->
            Arrays.stream(thread.getValue())
                .anyMatch(frame ->
                    frame
                        .getClassName()
                        .startsWith(
                            "org.springframework.jms.listener.DefaultMessageListenerContainer")));
  }
}
