package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.port.Availability;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SolrHistoryRecorderTest {

  private final FakeSolrClient solr = new FakeSolrClient();
  private final SolrHistoryGate gate = new SolrHistoryGate();
  private SolrHistoryRecorder recorder;

  private SolrHistoryRecorder recorder(int batchSize, int concurrency, Duration timeout) {
    return recorder(batchSize, Duration.ofMillis(2), concurrency, timeout);
  }

  private SolrHistoryRecorder recorder(
      int batchSize, Duration maxDelay, int concurrency, Duration timeout) {
    RecorderSettings settings =
        new RecorderSettings(
            batchSize,
            maxDelay,
            10_000,
            concurrency,
            Duration.ofSeconds(1),
            timeout,
            Duration.ofMillis(50));
    recorder = new SolrHistoryRecorder(solr, "history", settings, gate);
    return recorder;
  }

  @AfterEach
  void close() throws Exception {
    solr.hold.countDown();
    recorder.close();
  }

  private List<CompletableFuture<Void>> record(int n) {
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      futures.add(recorder.record(HistoryDocs.clean("unit", "r-" + i, Instant.EPOCH)));
    }
    return futures;
  }

  @Test
  void underLightLoadABatchIsOneDocumentSentWithCommitWithinAndNoCommit() throws Exception {
    recorder(500, 2, Duration.ofSeconds(5))
        .record(HistoryDocs.clean("unit", "one", Instant.EPOCH))
        .get(5, TimeUnit.SECONDS);

    assertThat(solr.accepted).hasSize(1);
    UpdateRequest request = solr.accepted.get(0);
    assertThat(FakeSolrClient.historyDocuments(request)).hasSize(1);
    assertThat(request.getDocuments().get(0).getFieldValue("id")).isEqualTo("amqp:one");
    // after the document, the same request marks its rollup slot dirty
    assertThat(request.getDocuments()).hasSize(2);
    assertThat(request.getDocuments().get(1).getFieldValue("id")).isEqualTo("dirty:0");
    assertThat(request.getCommitWithin()).isEqualTo(1000);
    assertThat(request.getAction()).isNull();
  }

  @Test
  void underLoadDocumentsAreBatchedUpToTheBatchSize() throws Exception {
    solr.hold = new CountDownLatch(1);
    recorder(100, 1, Duration.ofSeconds(30));
    List<CompletableFuture<Void>> futures = record(1_000);
    solr.hold.countDown();

    CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    assertThat(solr.acceptedDocuments()).isEqualTo(1_000);
    assertThat(solr.accepted).allMatch(r -> FakeSolrClient.historyDocuments(r).size() <= 100);
    assertThat(solr.accepted.size()).isLessThanOrEqualTo(12);
  }

  @Test
  void aRefusedBatchFailsItsFuturesTurnsTheGateDownAndAProbeBringsItBack() {
    solr.down = true;
    recorder(500, 2, Duration.ofSeconds(5));
    List<CompletableFuture<Void>> pending = record(10);

    await().atMost(Duration.ofSeconds(5)).until(() -> pending.stream().allMatch(f -> f.isDone()));
    assertThat(pending).allMatch(CompletableFuture::isCompletedExceptionally);
    assertThat(gate.accepting()).isInstanceOf(Availability.Down.class);
    assertThat(solr.accepted).isEmpty();

    solr.down = false;
    await().atMost(Duration.ofSeconds(5)).until(() -> gate.accepting().equals(Availability.up()));
    assertThat(solr.accepted.get(0).getDeleteById()).containsExactly(BatchWriter.PROBE_ID);
  }

  @Test
  void aDocumentNotSentWithinTheRequestTimeoutFailsUnsent() {
    solr.latencyMillis = 400;
    // A first batch waits up to 5 s to fill, so it always holds the first 10 documents: with a
    // short wait, a slow start of this thread could send it with fewer and fail the 10th.
    recorder(10, Duration.ofSeconds(5), 1, Duration.ofMillis(200));
    List<CompletableFuture<Void>> futures = record(50);

    await().atMost(Duration.ofSeconds(10)).until(() -> futures.stream().allMatch(f -> f.isDone()));
    assertThat(futures.subList(0, 10)).noneMatch(CompletableFuture::isCompletedExceptionally);
    assertThat(futures.subList(10, 50)).allMatch(CompletableFuture::isCompletedExceptionally);
    assertThat(solr.acceptedDocuments()).isEqualTo(10);
  }

  @Test
  void closeSendsWhatIsQueuedAndRefusesNewDocuments() throws Exception {
    solr.hold = new CountDownLatch(1);
    recorder(50, 1, Duration.ofSeconds(30));
    List<CompletableFuture<Void>> futures = record(200);
    solr.hold.countDown();
    recorder.close();

    assertThat(futures).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
    assertThat(solr.acceptedDocuments()).isEqualTo(200);
    assertThat(recorder.record(HistoryDocs.clean("unit", "late", Instant.EPOCH)))
        .isCompletedExceptionally();
  }
}
