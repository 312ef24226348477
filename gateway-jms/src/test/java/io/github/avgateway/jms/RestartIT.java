package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.SwitchableGate;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.broker.EmbeddedBroker;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.FakeDependencies;
import io.github.avgateway.jms.support.JmsContractDriver;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Requests waiting in the embedded broker's journal survive a restart of the gateway. */
class RestartIT {

  private static final int REQUESTS = 10;
  private static final String REPLIES = "restart.replies";

  @TempDir Path data;

  private ConfigurableApplicationContext start(String url) {
    return new SpringApplicationBuilder(GatewayJmsApplication.class, FakeDependencies.class)
        .run(
            "--avgateway.jms.url=" + url,
            "--server.port=0",
            "--avgateway.jms.embedded.data-dir=" + data.resolve("artemis"),
            "--avgateway.clamd.enabled=false",
            "--avgateway.solr.enabled=false",
            "--avgateway.jms.embedded.auto-create-queues=true",
            "--avgateway.jms.default-reply-queue=" + REPLIES,
            "--avgateway.jms.receive-timeout=200ms",
            "--avgateway.jms.pause-poll-interval=50ms");
  }

  @Test
  void requestsQueuedBeforeAStopAreAnsweredAfterTheRestart() throws Exception {
    String url = "tcp://127.0.0.1:" + TestEnv.freePort();
    List<String> correlationIds = new ArrayList<>();
    try (ConfigurableApplicationContext first = start(url)) {
      first.getBean(SwitchableGate.class).down("stopping soon (test)");
      EmbeddedBroker broker = first.getBean(EmbeddedBroker.class);
      String queue = first.getBean(JmsProperties.class).requestQueue();
      await().atMost(Duration.ofSeconds(10)).until(() -> broker.consumerCount(queue) == 0);
      try (JmsContractDriver sender = driver(url, first)) {
        for (int i = 0; i < REQUESTS; i++) {
          String correlationId = "restart-" + UUID.randomUUID();
          correlationIds.add(correlationId);
          sender.send(new ContractRequest(ContractFiles.clean(i), null, correlationId, false));
        }
      }
      assertThat(broker.messageCount(queue)).isEqualTo(REQUESTS);
    }

    try (ConfigurableApplicationContext second = start(url);
        Connection connection = new ActiveMQConnectionFactory(url).createConnection()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      MessageConsumer replies = session.createConsumer(session.createQueue(REPLIES));
      connection.start();
      Set<String> answered = new HashSet<>();
      for (int i = 0; i < REQUESTS; i++) {
        Message reply = replies.receive(30_000);
        assertThat(reply).as("reply %d of %d", i + 1, REQUESTS).isNotNull();
        answered.add(reply.getJMSCorrelationID());
      }
      assertThat(answered).containsExactlyInAnyOrderElementsOf(correlationIds);
      InMemoryHistory history = second.getBean(InMemoryHistory.class);
      await().atMost(Duration.ofSeconds(10)).until(() -> history.size() == REQUESTS);
    }
  }

  private static JmsContractDriver driver(String url, ConfigurableApplicationContext context)
      throws Exception {
    JmsProperties properties = context.getBean(JmsProperties.class);
    InMemoryHistory history = context.getBean(InMemoryHistory.class);
    return new JmsContractDriver(
        new ActiveMQConnectionFactory(url),
        properties.requestQueue(),
        properties.deadLetterQueue(),
        id -> history.find("jms", id));
  }
}
