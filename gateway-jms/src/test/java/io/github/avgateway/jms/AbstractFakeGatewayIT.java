package io.github.avgateway.jms;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.testing.FakeScanner;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.SwitchableGate;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.broker.EmbeddedBroker;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.FakeDependencies;
import io.github.avgateway.jms.support.Inbox;
import io.github.avgateway.jms.support.JmsContractDriver;
import jakarta.jms.JMSException;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The JMS gateway on its embedded broker (persistent journal in a temporary directory, CORE
 * acceptor on a free port) with a fake scanner, in-memory history and a switchable intake gate.
 * Subclasses share one application context; each test leaves the fakes as it found them.
 */
@SpringBootTest(classes = GatewayJmsApplication.class)
@Import(FakeDependencies.class)
abstract class AbstractFakeGatewayIT {

  @Autowired FakeScanner scanner;
  @Autowired InMemoryHistory history;
  @Autowired SwitchableGate gate;
  @Autowired EmbeddedBroker broker;
  @Autowired JmsProperties properties;
  @Autowired HistoryStreamProperties historyProperties;

  @DynamicPropertySource
  static void gatewayProperties(DynamicPropertyRegistry registry) throws IOException {
    registry.add("avgateway.jms.url", () -> "tcp://127.0.0.1:" + TestEnv.freePort());
    registry.add("avgateway.jms.embedded.data-dir", () -> tempDir().resolve("artemis").toString());
    registry.add("avgateway.clamd.enabled", () -> "false");
    // The fake scanner reports a signature version, so auto would cache: every request is scanned.
    registry.add("avgateway.pipeline.cache.enabled", () -> "false");
    registry.add("avgateway.solr.enabled", () -> "false");
    registry.add("avgateway.jms.consumers", () -> "2");
    registry.add("avgateway.jms.batch-size", () -> "8");
    // An intake outage costs no delivery attempt (the batch is held open), so 2 attempts are what
    // one rolled-back batch plus the answering redelivery need.
    registry.add("avgateway.jms.max-delivery-attempts", () -> "2");
    registry.add("avgateway.jms.redelivery-delay", () -> "100ms");
    registry.add("avgateway.jms.receive-timeout", () -> "200ms");
    registry.add("avgateway.jms.pause-poll-interval", () -> "50ms");
    registry.add("avgateway.history.indexer.backoff-first", () -> "50ms");
    registry.add("avgateway.history.indexer.backoff-max", () -> "200ms");
  }

  private static java.nio.file.Path tempDir() {
    try {
      return Files.createTempDirectory("avgw-jms-it");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A clean file no test sent before (so the verdict cache does not answer it). */
  static byte[] fresh() {
    return ContractFiles.clean(ThreadLocalRandom.current().nextLong());
  }

  @AfterEach
  void resetFakes() {
    scanner.failing(false);
    scanner.onFailure(() -> {});
    scanner.throwNext(0);
    history.acceptAll();
    gate.up();
  }

  /** An open driver that connects over TCP, as an outside client does, and its inbox. */
  JmsContractDriver driver(Inbox inbox) throws JMSException {
    JmsContractDriver driver =
        new JmsContractDriver(
            new ActiveMQConnectionFactory(properties.url()),
            properties.requestQueue(),
            properties.deadLetterQueue(),
            id -> history.find("jms", id));
    driver.open(inbox::reply, inbox::deadLetter);
    return driver;
  }

  /** The history document of {@code requestId}, once the in-memory history holds it (10 s). */
  MessageInfo awaitHistory(String requestId) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .until(() -> history.find("jms", requestId).isPresent());
    return history.find("jms", requestId).orElseThrow();
  }
}
