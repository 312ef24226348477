package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.testing.TcpProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Solr stopped (connections refused) or hung (a proxy that stops forwarding) under a recording
 * gateway: every pending future fails within a bound, nothing is reported accepted, the intake gate
 * goes down with a reason; Solr back: the gate comes back up by itself and recording resumes.
 */
class SolrOutageIT {

  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

  /** Queue wait plus one request: see {@link SolrHistoryRecorder}. */
  private static final Duration SETTLE_BOUND = REQUEST_TIMEOUT.multipliedBy(2).plusSeconds(1);

  @TempDir Path dir;
  private StandaloneSolr solr;
  private SolrHistoryStore store;
  private SolrHistoryGate gate;
  private SolrHistoryRecorder recorder;

  @BeforeEach
  void start() throws Exception {
    solr = StandaloneSolr.start(dir.resolve("solr-home"));
    store = solr.store(REQUEST_TIMEOUT);
    gate = new SolrHistoryGate();
    recorder = new SolrHistoryRecorder(store.client(), store.collection(), settings(), gate);
  }

  private static RecorderSettings settings() {
    return new RecorderSettings(
        100,
        Duration.ofMillis(2),
        1_000,
        2,
        Duration.ofSeconds(1),
        REQUEST_TIMEOUT,
        Duration.ofMillis(200));
  }

  @AfterEach
  void stop() throws Exception {
    recorder.close();
    store.close();
    solr.close();
  }

  @Test
  void solrDownFailsFuturesWithinABoundAndSolrBackResumesRecording() throws Exception {
    recordAll("before", 200).get(30, TimeUnit.SECONDS);
    assertThat(gate.accepting()).isEqualTo(Availability.up());

    solr.stop();
    long stopped = System.nanoTime();
    List<CompletableFuture<Void>> during = record("during", 500);
    await().atMost(SETTLE_BOUND).until(() -> during.stream().allMatch(CompletableFuture::isDone));
    assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(SETTLE_BOUND);
    assertThat(during).allMatch(CompletableFuture::isCompletedExceptionally);
    assertThatFailsWithSolrHistoryException(during.get(0));
    assertThat(gate.accepting())
        .isInstanceOfSatisfying(
            Availability.Down.class,
            down -> assertThat(down.why()).startsWith("Solr history does not accept writes"));

    solr.restart();
    await().atMost(Duration.ofSeconds(20)).until(() -> gate.accepting().equals(Availability.up()));
    recordAll("after", 200).get(30, TimeUnit.SECONDS);
    await().atMost(Duration.ofSeconds(30)).until(() -> count("gateway:after") == 200);
    assertThat(count("gateway:before")).isEqualTo(200);
  }

  @Test
  void solrHungFailsFuturesWithinTwiceTheRequestTimeoutAndRecordingResumesWhenItAnswers()
      throws Exception {
    try (TcpProxy proxy = TcpProxy.to(solr.port());
        SolrHistoryStore viaProxy =
            SolrHistoryStore.of(
                new Http2SolrClient.Builder(solr.baseUrlThrough(proxy.port()))
                    .withConnectionTimeout(1, TimeUnit.SECONDS)
                    .withRequestTimeout(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .build(),
                StandaloneSolr.CORE)) {
      recorder.close();
      recorder =
          new SolrHistoryRecorder(viaProxy.client(), viaProxy.collection(), settings(), gate);
      recordAll("proxied", 100).get(30, TimeUnit.SECONDS);

      proxy.freeze();
      long frozen = System.nanoTime();
      List<CompletableFuture<Void>> during = record("hung", 500);
      await().atMost(SETTLE_BOUND).until(() -> during.stream().allMatch(CompletableFuture::isDone));
      assertThat(Duration.ofNanos(System.nanoTime() - frozen)).isLessThan(SETTLE_BOUND);
      assertThat(during).allMatch(CompletableFuture::isCompletedExceptionally);
      assertThat(gate.accepting()).isInstanceOf(Availability.Down.class);

      proxy.thaw();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> gate.accepting().equals(Availability.up()));
      recordAll("thawed", 100).get(30, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(30)).until(() -> count("gateway:thawed") == 100);
      assertThat(count("gateway:hung")).isZero();
    }
  }

  private List<CompletableFuture<Void>> record(String gateway, int n) {
    Instant now = Instant.now();
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      MessageInfo doc = HistoryDocs.clean(gateway, gateway + "-" + i, now);
      futures.add(recorder.record(doc));
    }
    return futures;
  }

  private CompletableFuture<Void> recordAll(String gateway, int n) {
    return CompletableFuture.allOf(record(gateway, n).toArray(CompletableFuture[]::new));
  }

  private static void assertThatFailsWithSolrHistoryException(CompletableFuture<Void> future) {
    try {
      future.get();
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(SolrHistoryException.class);
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new AssertionError("expected a failed future");
  }

  private long count(String q) throws Exception {
    SolrQuery query = new SolrQuery(q);
    query.setRows(0);
    return store.client().query(store.collection(), query).getResults().getNumFound();
  }
}
