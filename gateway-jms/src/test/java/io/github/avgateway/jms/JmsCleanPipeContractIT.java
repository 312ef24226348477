package io.github.avgateway.jms;

import io.github.avgateway.core.contract.AbstractCleanPipeContractTests;
import io.github.avgateway.core.contract.PipeDriver;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.JmsPipeDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The clean-pipe contract, run against the JMS gateway on its embedded Artemis with the real clamd
 * (scripts/services.sh start clamd) and the embedded Solr history, two pipes configured: {@code
 * uploads.*} and {@code broken.*}.
 */
@SpringBootTest(classes = GatewayJmsApplication.class)
class JmsCleanPipeContractIT extends AbstractCleanPipeContractTests {

  private static final List<String> UPLOADS =
      List.of("uploads.inbox", "uploads.clean", "uploads.quarantine", "uploads.rejected");
  private static final List<String> BROKEN =
      List.of("broken.inbox", "broken.clean", "broken.quarantine", "broken.rejected");
  private static final List<String> ROLES = List.of("inbox", "clean", "quarantine", "rejected");
  private static final int MAX_SIZE = 256 * 1024;

  @Autowired JmsProperties properties;
  @Autowired HistoryQueries history;

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) throws IOException {
    Path data = Files.createTempDirectory("avgw-jms-pipe");
    registry.add("avgateway.jms.url", () -> "tcp://127.0.0.1:" + TestEnv.freePort());
    registry.add("avgateway.jms.embedded.data-dir", () -> data.resolve("artemis").toString());
    registry.add("avgateway.solr.embedded.home", () -> data.resolve("solr").toString());
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("avgateway.clamd.max-size", () -> MAX_SIZE + "B");
    registry.add("avgateway.jms.consumers", () -> "2");
    registry.add("avgateway.jms.receive-timeout", () -> "200ms");
    for (int i = 0; i < ROLES.size(); i++) {
      String role = ROLES.get(i);
      String uploads = UPLOADS.get(i);
      String broken = BROKEN.get(i);
      registry.add("avgateway.jms.pipes[0]." + role, () -> uploads);
      registry.add("avgateway.jms.pipes[1]." + role, () -> broken);
    }
  }

  @Override
  protected PipeDriver createPipeDriver() throws Exception {
    return new JmsPipeDriver(
        new ActiveMQConnectionFactory(properties.url()),
        Map.of(PipeDriver.Pipe.UPLOADS, UPLOADS, PipeDriver.Pipe.BROKEN, BROKEN),
        properties.deadLetterQueue(),
        MAX_SIZE,
        id -> history.byRequestId("jms", id));
  }
}
