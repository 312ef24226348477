package io.github.avgateway.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HistoryBufferTest {

  /** What the sink was asked to send, each with the future the test answers. */
  private record Sent(List<MessageInfo> documents, CompletableFuture<String> answer) {}

  private final List<Sent> sent = new CopyOnWriteArrayList<>();
  private final List<HistoryBuffer<String>> buffers = new ArrayList<>();

  @AfterEach
  void closeBuffers() {
    sent.forEach(s -> s.answer().complete("closing"));
    buffers.forEach(b -> b.close(Duration.ofSeconds(2)));
  }

  private HistoryBuffer<String> buffer(int maxDocuments, Duration maxWait) {
    HistoryBuffer<String> buffer =
        new HistoryBuffer<>(
            "test-history-buffer",
            documents -> {
              CompletableFuture<String> answer = new CompletableFuture<>();
              sent.add(new Sent(documents, answer));
              return answer;
            },
            error -> "failed: " + error.getMessage(),
            maxDocuments,
            maxWait);
    buffers.add(buffer);
    return buffer;
  }

  @Test
  void aLoneBatchGoesAtOnceAndTheBatchesThatFinishMeanwhileGoTogetherAfterItsAnswer() {
    HistoryBuffer<String> buffer = buffer(256, Duration.ofMinutes(1));
    CompletableFuture<String> first = buffer.submit(docs("a", 2));
    await().until(() -> sent.size() == 1);
    CompletableFuture<String> second = buffer.submit(docs("b", 3));
    CompletableFuture<String> third = buffer.submit(docs("c", 1));

    await().during(Duration.ofMillis(200)).until(() -> sent.size() == 1);
    assertThat(second).isNotDone();
    sent.get(0).answer().complete("confirmed 1");

    await().until(() -> sent.size() == 2);
    assertThat(first).isCompletedWithValue("confirmed 1");
    assertThat(ids(sent.get(1).documents())).containsExactly("b0", "b1", "b2", "c0");
    assertThat(second).isNotDone();
    sent.get(1).answer().complete("nacked 2");
    assertThat(second.join()).isEqualTo("nacked 2");
    assertThat(third.join()).as("every batch of a message gets its outcome").isEqualTo("nacked 2");
  }

  @Test
  void batchesReachingTheDocumentBoundGoWithoutWaitingAndNoMessageSplitsABatch() {
    HistoryBuffer<String> buffer = buffer(4, Duration.ofMinutes(1));
    buffer.submit(docs("a", 1));
    await().until(() -> sent.size() == 1);
    buffer.submit(docs("b", 3));
    buffer.submit(docs("c", 3));
    buffer.submit(docs("d", 9));

    // Each message is due as soon as the documents waiting reach the bound: all three go at once.
    await().until(() -> sent.size() == 4);
    assertThat(ids(sent.get(1).documents())).containsExactly("b0", "b1", "b2");
    assertThat(ids(sent.get(2).documents())).containsExactly("c0", "c1", "c2");
    assertThat(sent.get(3).documents()).as("a batch larger than the bound goes whole").hasSize(9);
    assertThat(buffer.inFlight()).isEqualTo(4);
  }

  @Test
  void documentsThatWaitedTheLongestWaitGoWithoutWaitingForTheAnswer() {
    HistoryBuffer<String> buffer = buffer(256, Duration.ofMillis(50));
    buffer.submit(docs("a", 1));
    await().until(() -> sent.size() == 1);
    long start = System.nanoTime();
    CompletableFuture<String> late = buffer.submit(docs("b", 1));

    await().atMost(Duration.ofSeconds(5)).until(() -> sent.size() == 2);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(50));
    sent.get(1).answer().complete("confirmed 2");
    assertThat(late.join()).isEqualTo("confirmed 2");
  }

  @Test
  void aSinkThatThrowsOrFailsAnswersWithTheFailedOutcome() {
    HistoryBuffer<String> throwing =
        new HistoryBuffer<>(
            "test-history-buffer",
            documents -> {
              throw new IllegalStateException("no channel");
            },
            error -> "failed: " + error.getMessage(),
            256,
            Duration.ofMillis(5));
    buffers.add(throwing);
    assertThat(throwing.submit(docs("a", 1)).join()).isEqualTo("failed: no channel");

    HistoryBuffer<String> buffer = buffer(256, Duration.ofMillis(5));
    CompletableFuture<String> outcome = buffer.submit(docs("b", 1));
    await().until(() -> sent.size() == 1);
    sent.get(0).answer().completeExceptionally(new IllegalStateException("channel closed"));
    assertThat(outcome.join()).isEqualTo("failed: channel closed");
  }

  @Test
  void closingSendsWhatIsBufferedAndRefusesWhatComesAfter() {
    HistoryBuffer<String> buffer = buffer(256, Duration.ofMinutes(1));
    buffer.submit(docs("a", 1));
    await().until(() -> sent.size() == 1);
    CompletableFuture<String> waiting = buffer.submit(docs("b", 2));

    buffer.close(Duration.ofSeconds(5));
    assertThat(sent).hasSize(2);
    assertThat(ids(sent.get(1).documents())).containsExactly("b0", "b1");
    sent.get(1).answer().complete("confirmed 2");
    assertThat(waiting.join()).isEqualTo("confirmed 2");
    assertThat(buffer.submit(docs("c", 1)).join()).startsWith("failed: ");
  }

  private static List<String> ids(List<MessageInfo> documents) {
    return documents.stream().map(MessageInfo::requestId).toList();
  }

  private static List<MessageInfo> docs(String prefix, int count) {
    return IntStream.range(0, count).mapToObj(i -> doc(prefix + i)).toList();
  }

  private static MessageInfo doc(String requestId) {
    return new MessageInfo(
        MessageInfo.idFor("amqp", requestId),
        requestId,
        null,
        "amqp",
        null,
        null,
        null,
        1,
        null,
        Verdict.CLEAN,
        List.of(),
        null,
        "ClamAV",
        "",
        false,
        Instant.EPOCH,
        Instant.EPOCH,
        1,
        1,
        "gw",
        false,
        Disposition.REPLIED,
        null);
  }
}
