package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.avgateway.core.contract.ContractDeadLetter;
import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.Inbox;
import io.github.avgateway.jms.support.JmsContractDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The intake on Spring JMS listener containers ({@code avgateway.jms.intake=listener-container})
 * with the fake scanner and a switchable gate: it takes nothing while the gate is down, holds a
 * batch caught by a pause without a delivery attempt, rolls a poison request back until the
 * delivery limit, and answers a burst (taken in batches) once each.
 */
class JmsListenerContainerHoldIT extends AbstractFakeGatewayIT {

  @DynamicPropertySource
  static void listenerContainers(DynamicPropertyRegistry registry) {
    registry.add("avgateway.jms.intake", () -> "listener-container");
  }

  private final Inbox inbox = new Inbox();
  private JmsContractDriver driver;

  @BeforeEach
  void openDriver() throws Exception {
    driver = driver(inbox);
  }

  @AfterEach
  void closeDriver() throws Exception {
    driver.close();
  }

  @Test
  void theListenerContainerIntakeIsOn() {
    assertThat(properties.intake()).isEqualTo(JmsProperties.Intake.LISTENER_CONTAINER);
  }

  @Test
  void nothingIsTakenWhileTheGateIsDownAndTheRequestIsAnsweredOnceItIsUp() {
    gate.down("clamd not ready (test)");
    int scansBefore = scanner.scans();
    String correlationId = "paused-" + UUID.randomUUID();
    String requestId = send(ContractRequest.of(fresh(), "paused.txt", correlationId));

    await().during(Duration.ofSeconds(1)).until(() -> inbox.replies(correlationId).isEmpty());
    assertThat(scanner.scans()).as("nothing scanned while paused").isEqualTo(scansBefore);
    gate.up();

    assertThat(inbox.awaitReply(correlationId).verdict()).isEqualTo("CLEAN");
    assertThat(awaitHistory(requestId).redelivered()).as("delivered once").isFalse();
  }

  @Test
  void intakeClosedRepeatedlyAroundOneScanCostsItNoDeliveryAttempt() {
    AtomicInteger failures = new AtomicInteger();
    scanner.failing(true);
    scanner.onFailure(() -> {
      failures.incrementAndGet();
      gate.down("clamd unreachable (test)");
    });
    String correlationId = "held-scan-" + UUID.randomUUID();
    String requestId = send(ContractRequest.of(fresh(), "held-scan.txt", correlationId));

    for (int outage = 1; outage <= 3; outage++) {
      int seen = outage;
      await().atMost(Duration.ofSeconds(20)).until(() -> failures.get() >= seen && gateDown());
      assertThat(inbox.replies(correlationId)).isEmpty();
      gate.up(); // the held batch scans again, which fails and closes the gate again
    }
    await().atMost(Duration.ofSeconds(20)).until(() -> failures.get() >= 4 && gateDown());
    scanner.failing(false);
    gate.up();

    assertThat(inbox.awaitReply(correlationId).verdict()).isEqualTo("CLEAN");
    MessageInfo doc = awaitHistory(requestId);
    assertThat(doc.redelivered()).as("delivered once, held through 4 outages").isFalse();
    await().during(Duration.ofMillis(500)).until(() -> inbox.replies(correlationId).size() == 1);
  }

  @Test
  void requestDeliveredMoreOftenThanTheLimitIsDeadLettered() {
    scanner.throwNext(Integer.MAX_VALUE);
    String correlationId = "poison-" + UUID.randomUUID();
    String requestId = send(ContractRequest.of(fresh(), "poison.bin", correlationId));

    ContractDeadLetter letter = inbox.awaitDeadLetter(correlationId);
    assertThat(letter.reason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
    assertThat(awaitHistory(requestId).deadLetterReason())
        .isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
    assertThat(inbox.replies(correlationId)).isEmpty();
  }

  /**
   * Requests waiting when the gate opens are taken in batches of up to {@code batch-size} (8 here)
   * inside the container's transactions, each answered once with one history document.
   */
  @Test
  void aBurstIsTakenInBatchesAndAnsweredOnceEachWithOneHistoryDocumentEach() {
    Logger batchLog =
        ((LoggerContext) LoggerFactory.getILoggerFactory())
            .getLogger("io.github.avgateway.jms.intake.Batch");
    Level level = batchLog.getLevel();
    ListAppender<ILoggingEvent> commits = new ListAppender<>();
    commits.start();
    batchLog.addAppender(commits);
    batchLog.setLevel(Level.DEBUG);
    try {
      gate.down("held for the burst (test)");
      List<String> correlationIds = new ArrayList<>();
      List<String> requestIds = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        String correlationId = "burst-" + i + "-" + UUID.randomUUID();
        correlationIds.add(correlationId);
        requestIds.add(send(ContractRequest.of(fresh(), "burst.txt", correlationId)));
      }
      gate.up();
      for (String correlationId : correlationIds) {
        assertThat(inbox.awaitReply(correlationId).verdict()).isEqualTo("CLEAN");
      }
      for (String requestId : requestIds) {
        assertThat(awaitHistory(requestId).redelivered()).isFalse();
      }
      await()
          .during(Duration.ofMillis(500))
          .until(() -> correlationIds.stream().allMatch(id -> inbox.replies(id).size() == 1));
      List<Integer> sizes =
          commits.list.stream()
              .filter(event -> event.getMessage().startsWith("Committing a batch of"))
              .map(event -> (Integer) event.getArgumentArray()[0])
              .toList();
      assertThat(sizes).as("batch sizes").allMatch(size -> size <= 8);
      assertThat(sizes).as("batch sizes").anyMatch(size -> size > 1);
    } finally {
      batchLog.detachAppender(commits);
      batchLog.setLevel(level);
    }
  }

  private boolean gateDown() {
    return gate.intake() instanceof Availability.Down;
  }

  private String send(ContractRequest request) {
    try {
      return driver.send(request);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private MessageInfo awaitHistory(String requestId) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .until(() -> history.find("jms", requestId).isPresent());
    return history.find("jms", requestId).orElseThrow();
  }
}
