package io.github.avgateway.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.testing.GatewayItSupport;
import io.github.avgateway.amqp.testing.QueueInbox;
import io.github.avgateway.amqp.testing.TestGateway;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.wire.HistoryMessages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A full history backlog on the real RabbitMQ ({@code x-max-length} 2, no indexer in this process):
 * the broker refuses the history message, intake pauses with readiness DOWN and the reason, further
 * requests stay in the broker unanswered and not dead-lettered; once the test drains the history
 * queue (standing in for an indexer), intake resumes by itself and every request is answered, each
 * with exactly one document on the stream.
 */
@SpringBootTest(classes = TestGateway.class)
class AmqpHistoryBacklogIT extends GatewayItSupport {

  private static final Names NAMES = Names.unique("backlog");
  private static final int BOUND = 2;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    register(registry, NAMES);
    registry.add("avgateway.history.max-messages", () -> BOUND);
    registry.add("avgateway.history.indexer.enabled", () -> false);
    registry.add("avgateway.amqp.batch-size", () -> 1);
  }

  @Autowired HistoryBacklogGate backlog;

  @Autowired
  @Qualifier("historyBacklogHealthIndicator")
  HealthIndicator backlogHealth;

  @Override
  protected Names names() {
    return NAMES;
  }

  @Test
  void aFullBacklogPausesIntakeUntilItDrainedThenEverythingIsAnswered() {
    List<String> ids = new ArrayList<>();
    // A quorum queue applies its bound a little late: send one request at a time until refused.
    for (int i = 0; i < 4 * BOUND && backlog.intake() instanceof Availability.Up; i++) {
      String id = send(bytes("fills " + i), NAMES.replies(), null);
      ids.add(id);
      await()
          .atMost(WAIT)
          .until(() ->
              !replies.matching(QueueInbox.correlationId(id)).isEmpty()
                  || backlog.intake() instanceof Availability.Down);
    }
    assertThat(backlog.intake()).isInstanceOf(Availability.Down.class);
    int answered = replies.drain().size();
    var health = backlogHealth.health();
    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
    assertThat(String.valueOf(health.getDetails().get("reason")))
        .contains("history backlog full", NAMES.history());
    // One request at a time: every history message held one document, so the estimate is exact.
    assertThat(health.getDetails())
        .hasEntrySatisfying("backlogMessages", n -> assertThat((Long) n).isPositive())
        .containsEntry("backlogDocumentsEstimate", health.getDetails().get("backlogMessages"));
    for (int i = 0; i < 5; i++) {
      ids.add(send(bytes("waits " + i), NAMES.replies(), null));
    }
    await()
        .during(Duration.ofSeconds(2))
        .atMost(WAIT)
        .until(() -> backlog.intake() instanceof Availability.Down);
    assertThat(replies.drain()).as("nothing answered meanwhile").hasSize(answered);
    assertThat(deadLetters.drain()).isEmpty();
    // The waiting requests are in the broker: unacknowledged, held by the paused consumers (at most
    // their prefetch), or ready in the request queue.

    // The test stands in for the indexer and drains the history queue all along: a batch's
    // history message follows its reply's confirm (and one the full backlog refused is published
    // again by the hold), so the last documents can come after the last replies; with nobody
    // draining them the bound would be reached again and intake would rightly stay down.
    Map<String, Integer> documents = new HashMap<>();
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> {
          drainHistory(documents);
          assertThat(replies.drain()).hasSize(ids.size());
          assertThat(documents.keySet()).containsExactlyInAnyOrderElementsOf(ids);
          assertThat(backlog.intake()).isInstanceOf(Availability.Up.class);
        });
    assertThat(deadLetters.drain()).isEmpty();
    assertThat(documents.values()).as("one document per request").containsOnly(1);
  }

  private void drainHistory(Map<String, Integer> documents) {
    Message message;
    while ((message = rabbit.receive(NAMES.history())) != null) {
      assertThat(message.getMessageProperties().getContentType())
          .isEqualTo(HistoryMessages.CONTENT_TYPE);
      for (MessageInfo doc : HistoryMessages.decode(message.getBody()).documents()) {
        documents.merge(doc.requestId(), 1, Integer::sum);
      }
    }
  }
}
