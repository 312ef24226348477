package io.github.avgateway.solr;

import static io.github.avgateway.solr.TimeRoutedCluster.TODAY;
import static io.github.avgateway.solr.TimeRoutedCluster.VISIBLE;
import static io.github.avgateway.solr.TimeRoutedCluster.day;
import static io.github.avgateway.solr.TimeRoutedCluster.member;
import static io.github.avgateway.solr.TimeRoutedCluster.recordAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryOrder;
import io.github.avgateway.core.port.HistoryPage;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import io.github.avgateway.solr.config.SolrHistoryAutoConfiguration;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import tools.jackson.databind.JsonNode;

/**
 * The history in a Solr time-routed alias, on a real two-node SolrCloud (MiniSolrCloudCluster): the
 * store contract on an alias the store creates (its data, from 2001 and 2002, are all older than
 * the alias' only collection: stored in the nearest one), then aliases started days back, one per
 * test: documents of several days in their days' collections, expired collections dropped, a writer
 * that keeps going while collections come and go, documents Solr would refuse, and a redelivery on
 * a later day. "Today" is the UTC day the class started in.
 */
class TimeRoutedHistoryIT extends HistoryStoreContract {

  private static final Duration DAY = Duration.ofDays(1);
  private static final TimeRouting THIRTY_DAYS =
      new TimeRouting(DAY, Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofDays(30));
  private static final String EICAR = "Eicar-Test-Signature";
  private static final String S1 = "1".repeat(64);

  /** Small batches, four in flight, and time enough for Solr to create a collection meanwhile. */
  private static final RecorderSettings SMALL_BATCHES =
      new RecorderSettings(
          25,
          Duration.ofMillis(2),
          5_000,
          4,
          Duration.ofSeconds(1),
          Duration.ofMinutes(2),
          Duration.ofSeconds(1));

  /** Whatever is recorded within a second goes in one batch. */
  private static final RecorderSettings ONE_BATCH =
      new RecorderSettings(
          1_000,
          Duration.ofSeconds(1),
          5_000,
          1,
          Duration.ofSeconds(1),
          Duration.ofSeconds(30),
          Duration.ofSeconds(1));

  private TimeRoutedCluster cluster;

  @Override
  SolrHistoryStore openStore(Path dir) throws Exception {
    cluster = new TimeRoutedCluster(dir.resolve("cluster"));
    return SolrHistoryStore.timeRouted(cluster.client(), "history", 2, 1, THIRTY_DAYS);
  }

  @Override
  void stopServer() throws Exception {
    cluster.close();
  }

  @Test
  void theStoreCreatesTheAliasWithTodaysCollectionFromTheHistoryConfigset() throws Exception {
    assertThat(cluster.members("history")).contains(member("history", TODAY));
    assertThat(cluster.properties("history"))
        .containsEntry("router.name", "time")
        .containsEntry("router.field", "receivedAt")
        .containsEntry("router.interval", "+1DAYS")
        .containsEntry("router.maxFutureMs", "600000")
        .containsEntry("router.preemptiveCreateMath", "1HOURS")
        .containsEntry("router.autoDeleteAge", "-32DAYS");
    var collection = cluster.client().getClusterState().getCollection(member("history", TODAY));
    assertThat(collection.getConfigName()).isEqualTo(HistoryConfigset.NAME);
    assertThat(collection.getSlices()).hasSize(2);
  }

  @Test
  void theGatewaysConfigurationOpensTheAliasAndRunsNoPurge() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SolrHistoryAutoConfiguration.class))
        .withPropertyValues(gatewayProperties("configured"))
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(SolrRetention.class);
          assertThat(context).hasSingleBean(SolrRollups.class);
          MessageInfo doc = doc("configured-1", Verdict.CLEAN, TODAY, List.of());
          context.getBean(HistoryRecorder.class).record(doc).get(60, TimeUnit.SECONDS);
          assertThat(context.getBean(HistoryQueries.class).byRequestId("amqp", "configured-1"))
              .contains(doc);
          assertThat(cluster.members("configured")).contains(member("configured", TODAY));
          assertThat(cluster.properties("configured"))
              .containsEntry("router.autoDeleteAge", "-32DAYS");
        });
  }

  /** The gateway's properties for a time-routed history named {@code alias} on this cluster. */
  private String[] gatewayProperties(String alias) {
    return new String[] {
      "avgateway.solr.mode=cloud",
      "avgateway.solr.collection=" + alias,
      "avgateway.solr.cloud.zk-hosts=" + cluster.zkAddress(),
      "avgateway.solr.cloud.time-routed.enabled=true",
      "avgateway.solr.request-timeout=60s"
    };
  }

  @Test
  void aPlainCollectionOfTheAliasNameIsRefusedSayingWhatToChange() {
    SolrHistoryStore.cloud(cluster.client(), "plain", 1, 1).close();
    assertThatThrownBy(() -> cluster.open("plain", THIRTY_DAYS, day(-1)))
        .isInstanceOf(SolrHistoryException.class)
        .hasMessageContaining("names a plain collection")
        .hasMessageContaining("avgateway.solr.collection");
  }

  @Test
  void anExistingAliasKeepsItsCollectionsAndTakesTheConfiguredRetention() throws Exception {
    cluster.open("reopened", THIRTY_DAYS, day(-1));
    List<String> members = cluster.members("reopened");
    TimeRouting shorter =
        new TimeRouting(DAY, Duration.ofMinutes(20), Duration.ofHours(1), Duration.ofDays(7));

    cluster.open("reopened", shorter, day(-3));

    assertThat(cluster.members("reopened")).isEqualTo(members);
    await()
        .atMost(VISIBLE)
        .untilAsserted(() ->
            assertThat(cluster.properties("reopened"))
                .containsEntry("router.autoDeleteAge", "-9DAYS")
                .containsEntry("router.maxFutureMs", "1200000"));
  }

  @Test
  void documentsOfSeveralDaysLandInTheirDaysCollectionsAndEveryQueryAnswersAcrossThem()
      throws Exception {
    SolrHistoryStore store = cluster.open("days", THIRTY_DAYS, day(-3));
    List<MessageInfo> docs = fourDays("days");

    recordAll(
        cluster.recorder(store, RecorderSettings.defaults(), HistoryBatchObserver.NONE), docs);

    assertThat(cluster.members("days"))
        .containsExactlyInAnyOrder(
            member("days", day(-3)),
            member("days", day(-2)),
            member("days", day(-1)),
            member("days", TODAY));
    for (int d = 0; d < 4; d++) {
      cluster.awaitIds(member("days", day(-d)), Set.of(docs.get(3 - d).id()));
    }
    SolrHistoryQueries queries = cluster.queries(store);
    for (MessageInfo doc : docs) {
      assertThat(queries.byRequestId("amqp", doc.requestId())).contains(doc);
    }
    // why: real-time get through the alias reads one member, so it finds one day's at most
    long throughAlias = 0;
    for (MessageInfo doc : docs) {
      throughAlias += store.client().getById("days", doc.id()) == null ? 0 : 1;
    }
    assertThat(throughAlias).isLessThanOrEqualTo(1);
    queriesAnswerAcrossTheDays(queries, docs);
  }

  private static void queriesAnswerAcrossTheDays(
      SolrHistoryQueries queries, List<MessageInfo> docs) {
    TimeRange days = new TimeRange(day(-4), Instant.now().plusSeconds(3600));
    assertThat(queries.recent(days, 10, HistoryOrder.NEWEST_FIRST)).isEqualTo(docs.reversed());
    HistoryPage first = queries.byVerdict(Verdict.INFECTED, days, HistoryCursor.first(), 1);
    assertThat(first.documents()).containsExactly(docs.get(2));
    HistoryPage second = queries.byVerdict(Verdict.INFECTED, days, first.next(), 1);
    assertThat(second.documents()).containsExactly(docs.get(0));
    assertThat(queries.byVerdict(Verdict.INFECTED, days, second.next(), 1).last()).isTrue();
    assertThat(queries.topSignatures(days, 5)).containsExactly(new SignatureCount(EICAR, 2));
    assertThat(queries.bySha256(S1, 10)).isEqualTo(docs.reversed());
    assertThat(queries.verdictsPerHour(days).stream().mapToLong(HourlyVerdictCounts::total).sum())
        .isEqualTo(4);
  }

  @Test
  void theHistoryApiAnswersAcrossTheDaysCollectionsFromTheirPerSlotCounts() throws Exception {
    SolrHistoryStore store = cluster.open("api", THIRTY_DAYS, day(-3));
    List<MessageInfo> docs = fourDays("api");
    new WebApplicationContextRunner()
        .withUserConfiguration(TimeRoutedApi.Gateway.class)
        .withPropertyValues(gatewayProperties("api"))
        .withPropertyValues("avgateway.solr.rollup.enabled=false")
        .run(context -> {
          assertThat(context).hasNotFailed();
          HistoryRecorder recorder = context.getBean(HistoryRecorder.class);
          for (MessageInfo doc : docs) {
            recorder.record(doc).get(60, TimeUnit.SECONDS);
          }
          HistoryStoreContract.countEverySlot(store);
          TimeRange days = new TimeRange(day(-3), day(1));
          RollupCoverage coverage =
              RollupCoverage.read(store.client(), "api", RollupSlots.DEFAULT, days, false);
          assertThat(coverage.live()).as("every hour answered by its counts").isEmpty();
          for (int d = 0; d < 4; d++) {
            String collection = member("api", day(-d));
            assertThat(cluster.countsIn(collection, RollupSlots.ROLLUP))
                .as(collection)
                .isPositive();
            // every day has its signature sum in its own collection (the counting run's clock is a
            // day ahead: today has ended for it)
            assertThat(cluster.countsIn(collection, RollupSlots.DAY)).as(collection).isEqualTo(1);
          }
          apiAnswersAcrossTheDays(new TimeRoutedApi(context), days);
        });
  }

  private static void apiAnswersAcrossTheDays(TimeRoutedApi api, TimeRange days) throws Exception {
    String range = "from=" + days.from() + "&to=" + days.to();
    JsonNode hours = api.get200("verdicts-per-hour?" + range);
    assertThat(hours.size()).isEqualTo(96);
    assertThat(hours.get(1).get("counts").get("INFECTED").asLong()).isEqualTo(1);
    assertThat(hours.get(49).get("counts").get("INFECTED").asLong()).isEqualTo(1);
    long total = 0;
    for (JsonNode hour : hours) {
      total +=
          hour.get("counts").get("CLEAN").asLong() + hour.get("counts").get("INFECTED").asLong();
    }
    assertThat(total).isEqualTo(4);
    JsonNode top = api.get200("top-signatures?" + range);
    assertThat(top.size()).isEqualTo(1);
    assertThat(top.get(0).get("signature").asString()).isEqualTo(EICAR);
    assertThat(top.get(0).get("count").asLong()).isEqualTo(2);
    assertThat(requestIds(api.get200("recent?limit=10&" + range)))
        .containsExactly("api-0", "api-1", "api-2", "api-3");
    assertThat(api.get200("by-request-id?requestId=api-3").get("requestId").asString())
        .isEqualTo("api-3");
    JsonNode first = api.get200("by-verdict?verdict=INFECTED&size=1&" + range);
    JsonNode second =
        api.get200(
            "by-verdict?verdict=INFECTED&size=1&"
                + range
                + "&cursor="
                + URLEncoder.encode(first.get("next").asString(), StandardCharsets.UTF_8));
    assertThat(requestIds(first.get("documents"))).containsExactly("api-1");
    assertThat(requestIds(second.get("documents"))).containsExactly("api-3");
  }

  private static List<String> requestIds(JsonNode documents) {
    List<String> ids = new java.util.ArrayList<>();
    documents.forEach(d -> ids.add(d.get("requestId").asString()));
    return ids;
  }

  @Test
  void anExpiredCollectionIsDroppedWhenANewerOneIsCreatedAndQueriesAnswerFromTheRest()
      throws Exception {
    // kept at least a day: Solr's autoDeleteAge is -3DAYS (a day + an interval + max-future)
    TimeRouting oneDay = new TimeRouting(DAY, Duration.ofMinutes(10), Duration.ZERO, DAY);
    SolrHistoryStore store = cluster.open("expiring", oneDay, day(-5));
    SolrHistoryRecorder recorder =
        cluster.recorder(store, RecorderSettings.defaults(), HistoryBatchObserver.NONE);
    SolrHistoryQueries queries = cluster.queries(store);
    List<MessageInfo> docs = new CopyOnWriteArrayList<>();
    for (int d = -5; d <= -2; d++) {
      docs.add(doc("expiring" + d, Verdict.CLEAN, day(d).plusSeconds(3600), List.of()));
      recordAll(recorder, List.of(docs.getLast()));
    }
    awaitMembers("expiring", day(-4), day(-3), day(-2));
    assertThat(queries.byRequestId("amqp", "expiring-5")).isEmpty();

    MessageInfo today = doc("expiring0", Verdict.INFECTED, TODAY, List.of(EICAR));
    recordAll(recorder, List.of(today));

    awaitMembers("expiring", day(-2), day(-1), TODAY);
    assertThat(queries.byRequestId("amqp", "expiring-3")).isEmpty();
    assertThat(queries.byRequestId("amqp", "expiring-2")).contains(docs.getLast());
    TimeRange all = new TimeRange(day(-6), Instant.now().plusSeconds(3600));
    await()
        .atMost(VISIBLE)
        .untilAsserted(() ->
            assertThat(queries.recent(all, 10, HistoryOrder.NEWEST_FIRST))
                .containsExactly(today, docs.getLast()));
    assertThat(queries.topSignatures(all, 5)).containsExactly(new SignatureCount(EICAR, 1));
  }

  @Test
  void theWriterKeepsRecordingWhileCollectionsAreCreatedAndDropped() throws Exception {
    TimeRouting oneDay = new TimeRouting(DAY, Duration.ofMinutes(10), Duration.ofHours(1), DAY);
    SolrHistoryStore store = cluster.open("rolling", oneDay, day(-6));
    SolrHistoryGate gate = new SolrHistoryGate();
    SolrHistoryRecorder recorder =
        new SolrHistoryRecorder(
            store.client(),
            store.collections(),
            SMALL_BATCHES,
            gate,
            HistoryBatchObserver.NONE,
            RollupSlots.DEFAULT);
    // every quarter of an hour from six days ago until now: each day's first batch makes Solr
    // create that day's collection (and drop the oldest), four batches in flight meanwhile
    List<MessageInfo> docs = new java.util.ArrayList<>();
    for (Instant t = day(-6); t.isBefore(Instant.now().minusSeconds(60)); t = t.plusSeconds(900)) {
      docs.add(doc("rolling-" + docs.size(), Verdict.CLEAN, t, List.of()));
    }

    recordAll(recorder, docs);
    recorder.close();

    await("the collections of days before yesterday's eve dropped")
        .atMost(VISIBLE)
        .until(() -> !cluster.oldestStart("rolling").isBefore(day(-2)));
    List<String> members = cluster.members("rolling");
    Instant oldest = cluster.oldestStart("rolling");
    assertThat(oldest).as("kept at least a day").isBeforeOrEqualTo(Instant.now().minus(DAY));
    assertThat(members).contains(member("rolling", TODAY)).hasSizeLessThanOrEqualTo(4);
    Set<String> kept =
        docs.stream()
            .filter(d -> !d.receivedAt().isBefore(oldest))
            .map(MessageInfo::id)
            .collect(java.util.stream.Collectors.toSet());
    await("every document received since the oldest collection's start is found")
        .atMost(VISIBLE)
        .until(() -> idsIn(members).containsAll(kept));
    assertThat(docs.stream().map(MessageInfo::id)).containsAll(idsIn(members));
    assertThat(gate.accepting()).isEqualTo(io.github.avgateway.core.port.Availability.up());
  }

  private Set<String> idsIn(List<String> members) throws Exception {
    Set<String> ids = new java.util.HashSet<>();
    for (String member : members) {
      ids.addAll(cluster.idsIn(member));
    }
    return ids;
  }

  @Test
  void documentsAheadOfTheClockAndOlderThanTheOldestCollectionAreStoredByOneAcceptedBatch()
      throws Exception {
    SolrHistoryStore store = cluster.open("edges", THIRTY_DAYS, day(-1));
    recordAll(
        cluster.recorder(store, RecorderSettings.defaults(), HistoryBatchObserver.NONE),
        List.of(doc("edges-today", Verdict.CLEAN, TODAY, List.of())));
    await().atMost(VISIBLE).until(() -> store.collections().members().size() == 2);
    List<Boolean> batches = new CopyOnWriteArrayList<>();
    SolrHistoryRecorder recorder =
        cluster.recorder(store, ONE_BATCH, (documents, took, accepted) -> batches.add(accepted));
    MessageInfo old =
        doc("edges-old", Verdict.ERROR, Instant.parse("2002-01-01T00:00:00Z"), List.of());
    MessageInfo ahead =
        doc(
            "edges-ahead",
            Verdict.CLEAN,
            Instant.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.MILLIS),
            List.of());
    MessageInfo now = doc("edges-now", Verdict.INFECTED, TODAY.plusSeconds(1), List.of(EICAR));

    recordAll(recorder, List.of(old, ahead, now));

    assertThat(batches).containsExactly(true);
    cluster.awaitIds(member("edges", day(-1)), Set.of(old.id()));
    cluster.awaitIds(member("edges", TODAY), Set.of("amqp:edges-today", ahead.id(), now.id()));
    SolrHistoryQueries queries = cluster.queries(store);
    assertThat(queries.byRequestId("amqp", "edges-old")).contains(old);
    assertThat(queries.byRequestId("amqp", "edges-ahead")).contains(ahead);
    TimeRange all =
        new TimeRange(Instant.parse("2001-01-01T00:00:00Z"), ahead.receivedAt().plusSeconds(1));
    assertThat(queries.recent(all, 10, HistoryOrder.NEWEST_FIRST)).startsWith(ahead).endsWith(old);
  }

  @Test
  void aBatchSolrRefusesAsUnroutableIsSentOnceMoreAfterTheMembersAreReadAgain() throws Exception {
    SolrHistoryStore store = cluster.open("lagging", THIRTY_DAYS, day(-1));
    AtomicInteger refreshed = new AtomicInteger();
    HistoryCollections lagging = new LaggingView(store.collections(), refreshed);
    SolrHistoryRecorder recorder =
        new SolrHistoryRecorder(
            store.client(),
            lagging,
            ONE_BATCH,
            new SolrHistoryGate(),
            HistoryBatchObserver.NONE,
            RollupSlots.DEFAULT);
    MessageInfo old =
        doc("lagging-old", Verdict.CLEAN, Instant.parse("2002-01-01T00:00:00Z"), List.of());
    MessageInfo now = doc("lagging-now", Verdict.CLEAN, TODAY, List.of());

    recordAll(recorder, List.of(old, now));
    recorder.close();

    assertThat(refreshed).hasValue(1);
    cluster.awaitIds(member("lagging", day(-1)), Set.of(old.id()));
    cluster.awaitIds(member("lagging", TODAY), Set.of(now.id()));
  }

  @Test
  void aRedeliveryReceivedOnALaterDayReplacesTheEarlierDaysDocument() throws Exception {
    SolrHistoryStore store = cluster.open("redelivery", THIRTY_DAYS, day(-1));
    SolrHistoryRecorder recorder =
        cluster.recorder(store, RecorderSettings.defaults(), HistoryBatchObserver.NONE);
    MessageInfo first = doc("again", Verdict.CLEAN, day(-1).plusSeconds(7200), List.of());
    recordAll(recorder, List.of(first));
    cluster.awaitIds(member("redelivery", day(-1)), Set.of(first.id()));
    // the same request id, received again today, dead-lettered this time
    MessageInfo again =
        HistoryDocs.redeliveredAndDeadLettered(doc("again", Verdict.CLEAN, TODAY, List.of()));

    recordAll(recorder, List.of(again));

    cluster.awaitIds(member("redelivery", day(-1)), Set.of());
    cluster.awaitIds(member("redelivery", TODAY), Set.of(first.id()));
    assertThat(cluster.queries(store).byRequestId("amqp", "again")).contains(again);
  }

  private void awaitMembers(String alias, Instant... starts) {
    List<String> expected = java.util.Arrays.stream(starts).map(s -> member(alias, s)).toList();
    await(alias + " has the members " + expected)
        .atMost(VISIBLE)
        .untilAsserted(
            () -> assertThat(cluster.members(alias)).containsExactlyInAnyOrderElementsOf(expected));
  }

  /**
   * One document on each of the last four days, oldest first: {@code <prefix>-3} INFECTED three
   * days ago, CLEAN two days ago, INFECTED yesterday (both with EICAR), {@code <prefix>-0} CLEAN
   * today.
   */
  private static List<MessageInfo> fourDays(String prefix) {
    return List.of(
        doc(prefix + "-3", Verdict.INFECTED, day(-3).plusSeconds(3600), List.of(EICAR)),
        doc(prefix + "-2", Verdict.CLEAN, day(-2).plusSeconds(3600), List.of()),
        doc(prefix + "-1", Verdict.INFECTED, day(-1).plusSeconds(3600), List.of(EICAR)),
        doc(prefix + "-0", Verdict.CLEAN, TODAY, List.of()));
  }

  private static MessageInfo doc(
      String requestId, Verdict verdict, Instant receivedAt, List<String> signatures) {
    return HistoryDocs.message(requestId, requestId, verdict, receivedAt, S1, signatures);
  }
}
