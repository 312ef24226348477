package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.TimeRange;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every Solr mode must do: accept concurrent records, keep one document per request id, and
 * answer the history queries ({@link HistoryQueriesContract}). Subclasses open the store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class HistoryStoreContract extends HistoryQueriesContract {

  private static final Duration VISIBLE = Duration.ofSeconds(30);

  private SolrHistoryStore store;
  private SolrHistoryRecorder recorder;
  private SolrHistoryQueries queries;

  /** Opens the store of the mode under test; {@code dir} is a fresh directory for its data. */
  abstract SolrHistoryStore openStore(Path dir) throws Exception;

  /** Stops whatever {@link #openStore} started besides the store. */
  void stopServer() throws Exception {}

  @BeforeAll
  void open(@TempDir Path tempDir) throws Exception {
    store = openStore(tempDir);
    recorder =
        new SolrHistoryRecorder(
            store.client(),
            store.collections(),
            RecorderSettings.defaults(),
            new SolrHistoryGate(),
            HistoryBatchObserver.NONE,
            RollupSlots.DEFAULT);
    queries =
        new SolrHistoryQueries(
            store.client(),
            store.collections(),
            SolrHistoryQueries.DEFAULT_TIMEOUT,
            RollupSlots.DEFAULT);
  }

  @AfterAll
  void close() throws Exception {
    recorder.close();
    store.close();
    stopServer();
  }

  SolrHistoryStore store() {
    return store;
  }

  @Override
  SolrHistoryRecorder recorder() {
    return recorder;
  }

  @Override
  HistoryQueries queries() {
    return queries;
  }

  @Override
  void countRollups() {
    countEverySlot(store);
  }

  /**
   * Counts every slot marked dirty in {@code store} so far (a run whose clock is a day ahead, so
   * that every slot is settled), until no marker is left.
   */
  static void countEverySlot(SolrHistoryStore store) {
    SolrRollups rollups =
        new SolrRollups(
            store.client(),
            store.collections(),
            RollupSlots.DEFAULT,
            new SolrRollups.Schedule(Duration.ofMinutes(1), Duration.ZERO, Duration.ofSeconds(2)),
            Clock.fixed(Instant.now().plusSeconds(86_400), ZoneOffset.UTC));
    await().atMost(VISIBLE).until(() -> !rollups.runOnce().more() && noMarkersLeft(store));
  }

  private static boolean noMarkersLeft(SolrHistoryStore store) throws Exception {
    SolrQuery markers =
        new SolrQuery("kind:(" + RollupSlots.DIRTY + " OR " + RollupSlots.DAY_DIRTY + ")");
    return store.client().query(store.collection(), markers).getResults().getNumFound() == 0;
  }

  @Override
  RollupCoverage coverage(TimeRange range) {
    return RollupCoverage.read(
        store.client(), store.collection(), RollupSlots.DEFAULT, range, false);
  }

  @Override
  CoveredSignatures coveredSignatures(TimeRange range) {
    return CoveredSignatures.read(
        store.client(), store.collection(), RollupSlots.DEFAULT, coverage(range));
  }

  @Override
  void overwriteSlotCounts(Instant slot, SlotCounts counts) throws Exception {
    long length = RollupSlots.DEFAULT.length().toMillis();
    // where the rollup job writes it (in a time-routed alias, the member of the slot's time)
    new HistoryUpdates(store.client(), store.collections())
        .add(List.of(SolrRollups.rollup(slot, length, counts)), List.of(), -1);
    for (String member : store.collections().members()) {
      store.client().commit(member);
    }
  }

  @Test
  void tenThousandDocumentsRecordedFromFourThreadsAreAllFoundById() throws Exception {
    String gateway = "concurrent-" + getClass().getSimpleName();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    List<Future<List<CompletableFuture<Void>>>> producers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int thread = t;
      producers.add(
          threads.submit(() -> {
            List<CompletableFuture<Void>> futures = new ArrayList<>();
            for (int i = 0; i < 2_500; i++) {
              String id = gateway + "-" + thread + "-" + i;
              futures.add(recorder.record(HistoryDocs.clean(gateway, id, now)));
            }
            return futures;
          }));
    }
    List<CompletableFuture<Void>> all = new ArrayList<>();
    for (Future<List<CompletableFuture<Void>>> producer : producers) {
      all.addAll(producer.get(60, TimeUnit.SECONDS));
    }
    threads.shutdown();
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

    await().atMost(VISIBLE).until(() -> count("gateway:" + gateway) == 10_000);
    Set<String> expected = new HashSet<>();
    for (int t = 0; t < 4; t++) {
      for (int i = 0; i < 2_500; i++) {
        expected.add(MessageInfo.idFor("amqp", gateway + "-" + t + "-" + i));
      }
    }
    assertThat(idsWhere("gateway:" + gateway)).isEqualTo(expected);
    assertThat(queries.byRequestId("amqp", gateway + "-3-2499")).isPresent();
  }

  @Test
  void aRedeliveredRequestStaysOneDocument() throws Exception {
    aRedeliveryReplacesTheDocumentWrittenBy("redelivery-", "2002-01-01", recorder::record);
  }

  @Test
  void aRequestRecordedAsNewIsReplacedByItsRedelivery() throws Exception {
    aRedeliveryReplacesTheDocumentWrittenBy("new-then-again-", "2002-01-02", recorder::recordNew);
  }

  private void aRedeliveryReplacesTheDocumentWrittenBy(
      String prefix, String day, Function<MessageInfo, CompletableFuture<Void>> firstWrite)
      throws Exception {
    String gateway = prefix + getClass().getSimpleName();
    MessageInfo first =
        HistoryDocs.clean(gateway, gateway + "-1", Instant.parse(day + "T00:00:00Z"));
    MessageInfo again = HistoryDocs.redeliveredAndDeadLettered(first);
    firstWrite.apply(first).get(30, TimeUnit.SECONDS);
    recorder.record(again).get(30, TimeUnit.SECONDS);

    await().atMost(VISIBLE).until(() -> count("gateway:" + gateway) == 1 && redelivered(gateway));
    assertThat(queries.byRequestId("amqp", gateway + "-1")).contains(again);
  }

  /**
   * What makes recording as new cheap: Solr adds the document without looking for one with its id
   * (so a caller that wrongly says new gets a second copy).
   */
  @Test
  void aDocumentRecordedAsNewIsAddedWithoutSolrsOverwrite() throws Exception {
    String gateway = "new-twice-" + getClass().getSimpleName();
    MessageInfo doc =
        HistoryDocs.clean(gateway, gateway + "-1", Instant.parse("2002-01-03T00:00:00Z"));
    recorder.recordNew(doc).get(30, TimeUnit.SECONDS);
    recorder.recordNew(doc).get(30, TimeUnit.SECONDS);

    await().atMost(VISIBLE).until(() -> count("gateway:" + gateway) == 2);
  }

  /** After a gateway died with many requests in flight, a batch holds hundreds of redeliveries. */
  @Test
  void aBatchOfHundredsOfRedeliveredRequestsIsAccepted() throws Exception {
    String gateway = "many-redelivered-" + getClass().getSimpleName();
    List<CompletableFuture<Void>> accepted = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      MessageInfo first =
          HistoryDocs.clean(
              gateway, gateway + "-" + UUID.randomUUID(), Instant.parse("2002-01-05T00:00:00Z"));
      accepted.add(recorder.record(HistoryDocs.redeliveredAndDeadLettered(first)));
    }
    CompletableFuture.allOf(accepted.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    await().atMost(VISIBLE).until(() -> count("gateway:" + gateway) == 600);
  }

  /**
   * Two indexers can write a request's two documents in the other order: the redelivery's first
   * (replacing nothing), then the first delivery's as new. The check after a minute removes the
   * older copy; the last written stays.
   */
  @Test
  void aSecondCopyWrittenInTheOtherOrderIsRemovedByTheLaterCheck() throws Exception {
    String gateway = "other-order-" + getClass().getSimpleName();
    MessageInfo first =
        HistoryDocs.clean(gateway, gateway + "-1", Instant.parse("2002-01-04T00:00:00Z"));
    MessageInfo again = HistoryDocs.redeliveredAndDeadLettered(first);
    SecondCopies copies = recorder.secondCopies();
    // ids without documents beside it: two lookups of hundreds of ids, more than a URL holds
    copies.watch(
        IntStream.range(0, 700)
            .mapToObj(i -> MessageInfo.idFor("amqp", gateway + "-none-" + UUID.randomUUID()))
            .toList());
    recorder.record(again).get(30, TimeUnit.SECONDS);
    recorder.recordNew(first).get(30, TimeUnit.SECONDS);
    await().atMost(VISIBLE).until(() -> count("gateway:" + gateway) == 2);

    Instant now = Instant.now();
    assertThat(copies.sweep(now)).as("not due yet").isZero();
    assertThat(copies.sweep(now.plus(SecondCopies.CHECKS.get(0)).plusSeconds(1))).isEqualTo(1);
    await().atMost(VISIBLE).until(() -> count("gateway:" + gateway) == 1);
    assertThat(queries.byRequestId("amqp", gateway + "-1")).contains(first);
    assertThat(copies.removed()).isEqualTo(1);
    // the second check finds one copy and deletes nothing
    assertThat(copies.sweep(now.plus(SecondCopies.CHECKS.get(1)).plusSeconds(1))).isZero();
  }

  private boolean redelivered(String gateway) throws Exception {
    SolrQuery query = new SolrQuery("gateway:" + gateway);
    QueryResponse response = store.client().query(store.collection(), query);
    return response.getResults().stream()
        .allMatch(doc -> Boolean.TRUE.equals(doc.getFirstValue("redelivered")));
  }

  long count(String q) throws Exception {
    SolrQuery query = new SolrQuery(q);
    query.setRows(0);
    return store.client().query(store.collection(), query).getResults().getNumFound();
  }

  /** The ids of every document matching {@code q}, in one request (the id has no docValues). */
  private Set<String> idsWhere(String q) throws Exception {
    SolrQuery query = new SolrQuery(q);
    query.setFields("id");
    query.setRows(Math.toIntExact(count(q)) + 1);
    Set<String> ids = new HashSet<>();
    for (SolrDocument doc : store.client().query(store.collection(), query).getResults()) {
      ids.add((String) doc.getFirstValue("id"));
    }
    return ids;
  }
}
