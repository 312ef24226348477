package io.github.avgateway.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.SwitchableGate;
import io.github.avgateway.core.wire.HistoryMessages;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryIndexerTest {

  private final InMemoryHistory store = new InMemoryHistory();
  private final SwitchableGate storeGate = new SwitchableGate();
  private final Clock clock = Clock.fixed(Instant.parse("2026-11-25T08:00:10Z"), ZoneOffset.UTC);
  private final IndexerStatus status = new IndexerStatus(clock);
  private final HistoryIndexer indexer =
      new HistoryIndexer(store, storeGate::intake, Duration.ofSeconds(5), status);

  @Test
  void everyDocumentOfEveryMessageReachesTheStore() {
    List<IndexOutcome> outcomes =
        indexer.index(
            List.of(
                HistoryMessages.encode(List.of(doc("a"), doc("b"))),
                HistoryMessages.encode(List.of(doc("c")))));
    assertThat(outcomes).containsExactly(new IndexOutcome.Indexed(2), new IndexOutcome.Indexed(1));
    assertThat(store.documents()).containsOnlyKeys("jms:a", "jms:b", "jms:c");
  }

  @Test
  void aRedeliveredMessageOverwritesItsDocuments() {
    byte[] body = HistoryMessages.encode(List.of(doc("a"), doc("b")));
    indexer.index(List.of(body));
    indexer.index(List.of(body));
    assertThat(store.calls()).hasSize(4);
    assertThat(store.size()).isEqualTo(2);
  }

  @Test
  void twoVersionsOfOneDocumentInAPollSendOnlyTheLater() {
    MessageInfo first = doc("a");
    MessageInfo again = redelivered(first);
    List<IndexOutcome> outcomes =
        indexer.index(
            List.of(
                HistoryMessages.encode(List.of(first, doc("b"))),
                HistoryMessages.encode(List.of(again))));
    assertThat(outcomes).containsExactly(new IndexOutcome.Indexed(2), new IndexOutcome.Indexed(1));
    assertThat(store.calls()).containsExactly(again, doc("b"));
    assertThat(store.documents().get("jms:a").redelivered()).isTrue();
  }

  @Test
  void anUnreadableMessageIsRejectedAndTheOthersAreStillIndexed() {
    List<IndexOutcome> outcomes =
        indexer.index(
            List.of(
                "garbage".getBytes(StandardCharsets.UTF_8),
                "{\"schema\":9,\"documents\":[]}".getBytes(StandardCharsets.UTF_8),
                HistoryMessages.encode(List.of(doc("a")))));
    assertThat(outcomes.get(0))
        .isInstanceOfSatisfying(
            IndexOutcome.Rejected.class,
            r -> assertThat(r.reason()).isEqualTo("HISTORY_MALFORMED"));
    assertThat(outcomes.get(1))
        .isInstanceOfSatisfying(
            IndexOutcome.Rejected.class,
            r -> assertThat(r.reason()).isEqualTo("HISTORY_UNKNOWN_SCHEMA"));
    assertThat(outcomes.get(2)).isEqualTo(new IndexOutcome.Indexed(1));
    assertThat(store.documents()).containsOnlyKeys("jms:a");
  }

  @Test
  void whenTheStoreRefusesOneDocumentEveryReadableMessageIsRefused() {
    store.refuseWhen(info -> info.requestId().equals("b"));
    List<IndexOutcome> outcomes =
        indexer.index(
            List.of(
                HistoryMessages.encode(List.of(doc("a"))),
                HistoryMessages.encode(List.of(doc("b"))),
                "garbage".getBytes(StandardCharsets.UTF_8)));
    assertThat(outcomes.get(0)).isInstanceOf(IndexOutcome.Refused.class);
    assertThat(outcomes.get(1)).isInstanceOf(IndexOutcome.Refused.class);
    assertThat(outcomes.get(2)).isInstanceOf(IndexOutcome.Rejected.class);
    assertThat(((IndexOutcome.Refused) outcomes.get(0)).why()).contains("refused by the test");
  }

  @Test
  void aStoreThatThrowsIsARefusalNotACrash() {
    HistoryIndexer throwing =
        new HistoryIndexer(
            info -> {
              throw new IllegalStateException("closed");
            },
            storeGate::intake,
            Duration.ofSeconds(1),
            status);
    assertThat(throwing.index(List.of(HistoryMessages.encode(List.of(doc("a"))))))
        .singleElement()
        .isInstanceOf(IndexOutcome.Refused.class);
  }

  @Test
  void aHeldPollIsTriedAgainAfterEachBackoffUntilTheStoreAccepts() {
    store.refuseWhen(info -> true);
    List<Duration> waits = new ArrayList<>();
    byte[] body = HistoryMessages.encode(List.of(doc("a"), doc("b")));
    List<IndexOutcome> outcomes =
        indexer.indexHeld(
            List.of(new HistoryIndexer.Received(body, false)),
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(300), () -> 1.0),
            wait -> {
              waits.add(wait);
              assertThat(status.indexing()).isInstanceOf(Availability.Down.class);
              assertThat(status.lag()).isEqualTo(Duration.ofSeconds(10));
              if (waits.size() == 3) {
                store.acceptAll();
              }
              return true;
            });
    assertThat(waits)
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300));
    assertThat(outcomes).containsExactly(new IndexOutcome.Indexed(2));
    assertThat(status.indexing()).isInstanceOf(Availability.Up.class);
    assertThat(status.documentsIndexed()).isEqualTo(2);
    assertThat(status.lag()).isZero();
  }

  @Test
  void whileTheStoreGateIsDownNothingIsSentAndThePollIsRefusedWithItsReason() {
    storeGate.down("Solr history retention is behind: test");
    assertThat(indexer.index(List.of(HistoryMessages.encode(List.of(doc("a"))))))
        .containsExactly(new IndexOutcome.Refused("Solr history retention is behind: test"));
    assertThat(store.calls()).isEmpty();
    assertThat(status.indexing()).isInstanceOf(Availability.Up.class);
  }

  @Test
  void aStoppingConsumerGivesUpItsHeldPollStillRefused() {
    store.refuseWhen(info -> true);
    List<IndexOutcome> outcomes =
        indexer.indexHeld(
            List.of(HistoryIndexer.Received.again(HistoryMessages.encode(List.of(doc("a"))))),
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(300), () -> 1.0),
            wait -> false);
    assertThat(outcomes).singleElement().isInstanceOf(IndexOutcome.Refused.class);
    assertThat(status.documentsIndexed()).isZero();
  }

  @Test
  void documentsOfAFirstDeliveryAreRecordedAsNewAndOfARedeliveryAsReplacing() {
    byte[] body = HistoryMessages.encode(List.of(doc("a"), doc("b")));
    indexer.indexHeld(List.of(new HistoryIndexer.Received(body, false)), backoff(), wait -> true);
    assertThat(store.newCalls()).containsExactly(doc("a"), doc("b"));
    indexer.indexHeld(List.of(new HistoryIndexer.Received(body, true)), backoff(), wait -> true);
    assertThat(store.calls()).hasSize(4);
    assertThat(store.newCalls()).hasSize(2);
    assertThat(store.copies()).isZero();
    assertThat(store.size()).isEqualTo(2);
  }

  @Test
  void aRedeliveredRequestsDocumentReplacesEvenInAFirstDeliveredMessage() {
    MessageInfo again = redelivered(doc("a"));
    indexer.indexHeld(
        List.of(new HistoryIndexer.Received(HistoryMessages.encode(List.of(again)), false)),
        backoff(),
        wait -> true);
    assertThat(store.calls()).containsExactly(again);
    assertThat(store.newCalls()).isEmpty();
  }

  @Test
  void anIdTwiceInOnePollIsRecordedAsReplacing() {
    MessageInfo first = doc("a");
    MessageInfo second = doc("a");
    indexer.indexHeld(
        List.of(
            new HistoryIndexer.Received(HistoryMessages.encode(List.of(first, doc("b"))), false),
            new HistoryIndexer.Received(HistoryMessages.encode(List.of(second)), false)),
        backoff(),
        wait -> true);
    assertThat(store.newCalls()).containsExactly(doc("b"));
    assertThat(store.calls()).containsExactly(second, doc("b"));
  }

  @Test
  void aPollTriedAgainAfterARefusalReplacesWhatTheFirstAttemptMayHaveWritten() {
    // "a" is accepted and "b" refused: the second attempt must not add "a" beside itself
    store.refuseWhen(info -> info.requestId().equals("b"));
    byte[] body = HistoryMessages.encode(List.of(doc("a"), doc("b")));
    List<IndexOutcome> outcomes =
        indexer.indexHeld(
            List.of(new HistoryIndexer.Received(body, false)),
            backoff(),
            wait -> {
              store.acceptAll();
              return true;
            });
    assertThat(outcomes).containsExactly(new IndexOutcome.Indexed(2));
    assertThat(store.newCalls()).containsExactly(doc("a"), doc("b"));
    assertThat(store.calls()).hasSize(4);
    assertThat(store.copies()).isZero();
    assertThat(store.size()).isEqualTo(2);
  }

  private static Backoff backoff() {
    return new Backoff(Duration.ofMillis(1), Duration.ofMillis(1), () -> 1.0);
  }

  private static MessageInfo redelivered(MessageInfo doc) {
    return new MessageInfo(
        doc.id(),
        doc.requestId(),
        doc.correlationId(),
        doc.transport(),
        doc.clientId(),
        doc.filename(),
        doc.contentType(),
        doc.sizeBytes(),
        doc.sha256(),
        doc.verdict(),
        doc.signatures(),
        doc.reason(),
        doc.engine(),
        doc.signatureVersion(),
        doc.cached(),
        doc.receivedAt(),
        doc.scannedAt(),
        doc.scanMillis(),
        doc.totalMillis(),
        doc.gateway(),
        true,
        doc.disposition(),
        doc.deadLetterReason());
  }

  private static MessageInfo doc(String requestId) {
    return new MessageInfo(
        MessageInfo.idFor("jms", requestId),
        requestId,
        null,
        "jms",
        null,
        null,
        null,
        1,
        "00",
        Verdict.CLEAN,
        List.of(),
        null,
        "ClamAV 1.4.6",
        "",
        false,
        Instant.parse("2026-11-25T08:00:00Z"),
        Instant.parse("2026-11-25T08:00:00Z"),
        0,
        0,
        "gw",
        false,
        Disposition.REPLIED,
        null);
  }
}
