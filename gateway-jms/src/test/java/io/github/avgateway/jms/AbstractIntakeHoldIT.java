package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.avgateway.core.contract.ContractDeadLetter;
import io.github.avgateway.core.contract.ContractReply;
import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
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

/**
 * What an intake does while the intake gate closes and opens, written once for both JMS intakes
 * (the gateway's own consumers, {@link JmsConsumersHoldIT}; Spring JMS listener containers, {@link
 * JmsListenerContainerHoldIT}): nothing is taken while the gate is down; a burst waiting when it
 * opens is taken in batches of up to {@code batch-size} and answered once each; a scan that fails
 * while the gate is down is retried, not answered; a batch held through outages costs its request
 * no delivery attempt; a poison request is dead-lettered at the delivery limit; a scan failure with
 * the gate up is answered as ERROR.
 */
abstract class AbstractIntakeHoldIT extends AbstractFakeGatewayIT {

  protected final Inbox inbox = new Inbox();
  protected JmsContractDriver driver;

  @BeforeEach
  void openDriver() throws Exception {
    driver = driver(inbox);
  }

  @AfterEach
  void closeDriver() throws Exception {
    driver.close();
  }

  @Test
  void requestDeliveredMoreOftenThanTheLimitIsDeadLettered() {
    scanner.throwNext(Integer.MAX_VALUE);
    String correlationId = "poison-" + UUID.randomUUID();
    String requestId = send(ContractRequest.of(fresh(), "poison.bin", correlationId));

    ContractDeadLetter letter = inbox.awaitDeadLetter(correlationId);
    assertThat(letter.reason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
    MessageInfo doc = awaitHistory(requestId);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED);
    assertThat(doc.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(inbox.replies(correlationId)).isEmpty();
  }

  @Test
  void scanFailureWhileTheGateIsDownIsRetriedNotAnswered() {
    scanner.failing(true);
    scanner.onFailure(() -> gate.down("clamd unreachable (test)"));
    String correlationId = "retry-" + UUID.randomUUID();
    send(ContractRequest.of(fresh(), null, correlationId));

    await().atMost(Duration.ofSeconds(10)).until(() -> gateDown());
    await().during(Duration.ofMillis(500)).until(() -> inbox.replies(correlationId).isEmpty());
    scanner.failing(false);
    gate.up();
    ContractReply reply = inbox.awaitReply(correlationId);
    assertThat(reply.verdict()).isEqualTo("CLEAN");
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

    for (int outage = 1; outage <= 4; outage++) {
      int seen = outage;
      await().atMost(Duration.ofSeconds(20)).until(() -> failures.get() >= seen && gateDown());
      assertThat(inbox.replies(correlationId)).isEmpty();
      gate.up(); // the held batch scans again, which fails and closes the gate again
    }
    await().atMost(Duration.ofSeconds(20)).until(() -> failures.get() >= 5 && gateDown());
    scanner.failing(false);
    gate.up();

    assertThat(inbox.awaitReply(correlationId).verdict()).isEqualTo("CLEAN");
    MessageInfo doc = awaitHistory(requestId);
    assertThat(doc.redelivered()).as("delivered once, held through 5 outages").isFalse();
    assertThat(inbox.deadLetters(correlationId)).isEmpty();
    await().during(Duration.ofMillis(500)).until(() -> inbox.replies(correlationId).size() == 1);
  }

  @Test
  void scanFailureWhileTheGateClosedAndOpenedAgainIsScannedAgainNotAnswered() {
    scanner.failing(true);
    scanner.onFailure(() -> {
      // clamd marked down and found back by a probe before the gateway asks the gate
      scanner.failing(false);
      gate.blink("clamd unreachable for a moment (test)");
    });
    String correlationId = "blink-" + UUID.randomUUID();
    String requestId = send(ContractRequest.of(fresh(), null, correlationId));

    assertThat(inbox.awaitReply(correlationId).verdict()).isEqualTo("CLEAN");
    assertThat(awaitHistory(requestId).redelivered()).isFalse();
    scanner.onFailure(() -> {});
  }

  @Test
  void scanFailureWhileTheGateIsUpIsAnsweredAsError() {
    scanner.failing(true);
    String correlationId = "error-" + UUID.randomUUID();
    send(ContractRequest.of(fresh(), null, correlationId));

    ContractReply reply = inbox.awaitReply(correlationId);
    assertThat(reply.verdict()).isEqualTo("ERROR");
    assertThat(reply.reason()).isEqualTo("SCAN_FAILED");
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

  protected boolean gateDown() {
    return gate.intake() instanceof Availability.Down;
  }

  protected String send(ContractRequest request) {
    try {
      return driver.send(request);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
