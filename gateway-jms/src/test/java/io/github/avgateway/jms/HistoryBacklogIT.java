package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.wire.HistoryMessages;
import io.github.avgateway.jms.support.Inbox;
import io.github.avgateway.jms.support.JmsContractDriver;
import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The history stream's bound on the embedded broker: with no indexer draining it, the history
 * address fills to {@code avgateway.history.max-bytes}; then the broker refuses the next batch's
 * history message, intake pauses (requests stay in the broker, unanswered, not dead-lettered) and
 * readiness says why; once the history queue is drained, intake resumes by itself and every request
 * is answered once, with exactly one document in the history stream.
 */
class HistoryBacklogIT extends AbstractFakeGatewayIT {

  @Autowired HistoryBacklogGate backlog;

  @Autowired
  @Qualifier("historyBacklogHealthIndicator")
  HealthIndicator backlogHealth;

  private final Inbox inbox = new Inbox();
  private JmsContractDriver driver;

  @DynamicPropertySource
  static void smallBacklog(DynamicPropertyRegistry registry) {
    registry.add("avgateway.history.max-bytes", () -> "32KB");
    registry.add("avgateway.history.indexer.enabled", () -> "false");
  }

  @BeforeEach
  void openDriver() throws Exception {
    driver = driver(inbox);
  }

  @AfterEach
  void closeDriver() throws Exception {
    driver.close();
  }

  @Test
  void aFullBacklogPausesIntakeUntilItIsDrainedAndLosesNothing() throws Exception {
    List<String> sent = new ArrayList<>();
    String prefix = "backlog-" + UUID.randomUUID() + "-";
    while (backlog.intake() instanceof Availability.Up) {
      assertThat(sent).as("requests before the bound was reached").hasSizeLessThan(2000);
      String correlationId = prefix + sent.size();
      driver.send(ContractRequest.of(fresh(), "backlog.txt", correlationId));
      sent.add(correlationId);
      if (sent.size() % 20 == 0) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> answered(sent) >= sent.size() - 20 || backlogFull());
      }
    }
    assertThat(((Availability.Down) backlog.intake()).why()).startsWith("history backlog full");
    var health = backlogHealth.health(true);
    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
    // Every history message holds at least one document: the estimate is at least the count.
    long messages = (Long) health.getDetails().get("backlogMessages");
    assertThat(messages).isPositive();
    assertThat((Long) health.getDetails().get("backlogDocumentsEstimate"))
        .isGreaterThanOrEqualTo(messages);

    for (int i = 0; i < 10; i++) {
      String correlationId = prefix + sent.size();
      driver.send(ContractRequest.of(fresh(), "backlog.txt", correlationId));
      sent.add(correlationId);
    }
    long answeredWhileFull = answered(sent);
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(5))
        .until(() -> answered(sent) == answeredWhileFull);
    assertThat(answeredWhileFull).as("answered while the backlog is full").isLessThan(sent.size());
    assertThat(broker.messageCount(properties.requestQueue())).isPositive();
    assertThat(sent.stream().mapToInt(id -> inbox.deadLetters(id).size()).sum()).isZero();

    List<MessageInfo> documents = new ArrayList<>();
    try (MessageConsumer stream =
        driver.session().createConsumer(driver.session().createQueue(historyProperties.queue()))) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInSameThread() // the JMS session is this thread's
          .until(() -> {
            drain(stream, documents);
            return answered(sent) == sent.size() && documentsOf(documents, prefix) == sent.size();
          });
    }
    assertThat(backlog.intake()).isInstanceOf(Availability.Up.class);
    for (String correlationId : sent) {
      assertThat(inbox.replies(correlationId)).as(correlationId).hasSize(1);
    }
    Set<String> ids = new HashSet<>();
    documents.stream()
        .filter(d -> d.correlationId() != null && d.correlationId().startsWith(prefix))
        .forEach(d -> assertThat(ids.add(d.id())).as("one document for " + d.id()).isTrue());
  }

  private boolean backlogFull() {
    return backlog.intake() instanceof Availability.Down;
  }

  private long answered(List<String> sent) {
    return sent.stream().filter(id -> !inbox.replies(id).isEmpty()).count();
  }

  private static long documentsOf(List<MessageInfo> documents, String prefix) {
    return documents.stream()
        .filter(d -> d.correlationId() != null && d.correlationId().startsWith(prefix))
        .count();
  }

  /** Takes what is on the history queue now, as an indexer would. */
  private static void drain(MessageConsumer stream, List<MessageInfo> into) throws Exception {
    for (Message m = stream.receive(100); m != null; m = stream.receiveNoWait()) {
      BytesMessage bytes = (BytesMessage) m;
      byte[] body = new byte[Math.toIntExact(bytes.getBodyLength())];
      bytes.readBytes(body);
      into.addAll(HistoryMessages.decode(body).documents());
    }
  }
}
