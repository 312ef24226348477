package io.github.avgateway.jms;

import io.github.avgateway.core.contract.AbstractTransportContractTests;
import io.github.avgateway.core.contract.TransportDriver;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.FakeDependencies;
import io.github.avgateway.jms.support.FreePort;
import io.github.avgateway.jms.support.InMemoryHistory;
import io.github.avgateway.jms.support.JmsContractDriver;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The transport contract, run against the JMS gateway on its embedded Artemis. */
@SpringBootTest(classes = GatewayJmsApplication.class)
@Import(FakeDependencies.class)
class JmsTransportContractIT extends AbstractTransportContractTests {

  @Autowired JmsProperties properties;
  @Autowired InMemoryHistory history;

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) throws IOException {
    String dataDir = Files.createTempDirectory("avgw-jms-contract").resolve("artemis").toString();
    registry.add("avgateway.jms.url", () -> "tcp://127.0.0.1:" + FreePort.find());
    registry.add("avgateway.jms.embedded.data-dir", () -> dataDir);
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
