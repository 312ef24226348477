package io.github.avgateway.jms;

import io.github.avgateway.core.contract.AbstractTransportContractTests;
import io.github.avgateway.core.contract.TransportDriver;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.JmsContractDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The transport contract, run against the JMS gateway on its embedded Artemis (persistent journal)
 * with the real clamd (scripts/services.sh start clamd) and the embedded Solr history; outside
 * clients connect over TCP. A clamd that is not running fails the suite (its requests stay
 * unanswered while the clamd readiness gate is down).
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
}
