package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryOrder;
import io.github.avgateway.core.port.HistoryPage;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The history queries, on a small data set of known order, recorded once per store. */
abstract class HistoryQueriesContract {

  private static final Instant H10 = Instant.parse("2001-02-03T10:00:00Z");
  private static final String S1 = "1".repeat(64);
  private static final String S2 = "2".repeat(64);
  private static final String S3 = "3".repeat(64);
  private static final String EICAR = "Eicar-Test-Signature";
  private static final String OTHER = "Other-Signature";
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

  private final MessageInfo early = doc("q-early", Verdict.ERROR, -1, S3, List.of());
  private final MessageInfo a = doc("q-a", Verdict.CLEAN, 5, S1, List.of());
  private final MessageInfo b = doc("q-b", Verdict.INFECTED, 10, S2, List.of(EICAR));
  private final MessageInfo c =
      doc("q-c", Verdict.INFECTED, 50, S2, List.of(EICAR, OTHER)).withTraceId(TRACE);
  private final MessageInfo d = doc("q-d", Verdict.UNSCANNABLE, 80, S3, List.of());
  private final MessageInfo e =
      doc("q-e", Verdict.INFECTED, 90, S2, List.of(OTHER)).withTraceId(TRACE);
  private final MessageInfo f = doc("q-f", Verdict.INFECTED, 105, S1, List.of(EICAR));
  private final MessageInfo late = doc("q-late", Verdict.INFECTED, 135, S3, List.of(EICAR));
  private boolean recorded;

  abstract SolrHistoryRecorder recorder();

  abstract HistoryQueries queries();

  /** Counts every slot marked dirty so far into the per-slot counts, as SolrRollups does. */
  abstract void countRollups();

  /** Which hours of {@code range} the per-slot counts cover. */
  abstract RollupCoverage coverage(TimeRange range);

  /** The signature counts of the covered hours of {@code range}, and the days summed for them. */
  abstract CoveredSignatures coveredSignatures(TimeRange range);

  /** Replaces the counts of one slot, as counting it again would (visible on return). */
  abstract void overwriteSlotCounts(Instant slot, SlotCounts counts) throws Exception;

  private static MessageInfo doc(
      String id, Verdict verdict, int minutes, String sha, List<String> sigs) {
    return HistoryDocs.message("queries", id, verdict, H10.plusSeconds(60L * minutes), sha, sigs);
  }

  private synchronized void recordDataSet() throws Exception {
    if (recorded) {
      return;
    }
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    for (MessageInfo doc : List.of(early, a, b, c, d, e, f, late)) {
      futures.add(recorder().record(doc));
    }
    CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    TimeRange all = new TimeRange(H10.minusSeconds(3600), H10.plusSeconds(4 * 3600));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            queries().topSignatures(all, 5).stream().mapToLong(SignatureCount::count).sum() == 6);
    recorded = true;
  }

  @Test
  void byRequestIdReturnsTheDocumentAsRecorded() throws Exception {
    recordDataSet();
    assertThat(queries().byRequestId("amqp", "q-c")).contains(c);
    assertThat(queries().byRequestId("amqp", "q-missing")).isEmpty();
    assertThat(queries().byRequestId("jms", "q-c")).isEmpty();
  }

  @Test
  void bySha256ReturnsNewestFirstUpToTheLimit() throws Exception {
    recordDataSet();
    assertThat(queries().bySha256(S2, 10)).containsExactly(e, c, b);
    assertThat(queries().bySha256(S2, 2)).containsExactly(e, c);
    assertThat(queries().bySha256("f".repeat(64), 10)).isEmpty();
  }

  @Test
  void byCorrelationIdFindsTheRequestsThatCarriedIt() throws Exception {
    recordDataSet();
    assertThat(queries().byCorrelationId("corr-q-c", 10)).containsExactly(c);
    assertThat(queries().byCorrelationId("corr-q-missing", 10)).isEmpty();
  }

  @Test
  void byTraceIdFindsTheRequestsOfOneTraceNewestFirst() throws Exception {
    recordDataSet();
    assertThat(queries().byTraceId(TRACE, 10)).containsExactly(e, c);
    assertThat(queries().byTraceId(TRACE, 1)).containsExactly(e);
    assertThat(queries().byTraceId("0af7651916cd43dd8448eb211c80319c", 10)).isEmpty();
    assertThat(queries().byRequestId("amqp", "q-a"))
        .get()
        .extracting(MessageInfo::traceId)
        .isNull();
  }

  @Test
  void recentListsAnyVerdictInEitherOrder() throws Exception {
    recordDataSet();
    TimeRange range = new TimeRange(H10, H10.plusSeconds(2 * 3600));
    assertThat(queries().recent(range, 4, HistoryOrder.NEWEST_FIRST)).containsExactly(f, e, d, c);
    assertThat(queries().recent(range, 3, HistoryOrder.OLDEST_FIRST)).containsExactly(a, b, c);
    assertThat(queries().recent(range, 50, HistoryOrder.NEWEST_FIRST)).hasSize(6);
  }

  @Test
  void byVerdictPagesNewestFirstWithACursor() throws Exception {
    recordDataSet();
    TimeRange range = new TimeRange(H10, H10.plusSeconds(2 * 3600));

    HistoryPage first = queries().byVerdict(Verdict.INFECTED, range, HistoryCursor.first(), 2);
    assertThat(first.documents()).containsExactly(f, e);
    assertThat(first.last()).isFalse();
    HistoryPage second = queries().byVerdict(Verdict.INFECTED, range, first.next(), 2);
    assertThat(second.documents()).containsExactly(c, b);
    HistoryPage third = queries().byVerdict(Verdict.INFECTED, range, second.next(), 2);
    assertThat(third.documents()).isEmpty();
    assertThat(third.last()).isTrue();

    HistoryPage clean = queries().byVerdict(Verdict.CLEAN, range, HistoryCursor.first(), 10);
    assertThat(clean.documents()).containsExactly(a);
    assertThat(clean.last()).isTrue();
  }

  @Test
  void aCursorTheStoreNeverIssuedIsRejectedAsAnArgument() throws Exception {
    recordDataSet();
    TimeRange range = new TimeRange(H10, H10.plusSeconds(2 * 3600));
    assertThatThrownBy(
            () -> queries().byVerdict(Verdict.INFECTED, range, new HistoryCursor("AoE="), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("AoE=");
  }

  @Test
  void topSignaturesCountsOnlyTheTimeRange() throws Exception {
    recordDataSet();
    TimeRange range = new TimeRange(H10, H10.plusSeconds(2 * 3600));
    assertThat(queries().topSignatures(range, 10))
        .containsExactly(new SignatureCount(EICAR, 3), new SignatureCount(OTHER, 2));
    assertThat(queries().topSignatures(range, 1)).containsExactly(new SignatureCount(EICAR, 3));
  }

  @Test
  void theCountsAreTheSameOnceTheSlotsAreCounted() throws Exception {
    recordDataSet();
    countRollups();
    TimeRange range = new TimeRange(H10.minusSeconds(3600), H10.plusSeconds(3 * 3600));
    assertThat(coverage(range).covered()).hasSize(4 * 6).containsKeys(H10, H10.plusSeconds(600));
    assertThat(coverage(range).live()).isEmpty();
    verdictsPerHourCountsEveryHourOfTheRange();
    topSignaturesCountsOnlyTheTimeRange();
    // partial slots at both ends, [10:48, 10:50) and [11:30, 11:32), counted from documents (one
    // there: e at 11:30), the four slots between from their counts (c, d); hour 11 adds both
    TimeRange partial = new TimeRange(H10.plusSeconds(48 * 60), H10.plusSeconds(92 * 60));
    assertThat(coverage(partial).covered()).hasSize(4);
    assertThat(coverage(partial).live())
        .containsExactly(
            new TimeRange(H10.plusSeconds(48 * 60), H10.plusSeconds(50 * 60)),
            new TimeRange(H10.plusSeconds(90 * 60), H10.plusSeconds(92 * 60)));
    assertThat(queries().verdictsPerHour(partial))
        .containsExactly(
            new HourlyVerdictCounts(H10, Map.of(Verdict.INFECTED, 1L)),
            new HourlyVerdictCounts(
                H10.plusSeconds(3600), Map.of(Verdict.UNSCANNABLE, 1L, Verdict.INFECTED, 1L)));
  }

  @Test
  void aDaysSignaturesComeFromItsSumWhileTheSumIsCurrent() throws Exception {
    Instant day = Instant.parse("2001-02-05T00:00:00Z"); // a day of its own
    Instant slot = day.plusSeconds(16 * 3600);
    record(
        doc("q-day-1", Verdict.INFECTED, day.plusSeconds(15 * 3600), List.of(EICAR)),
        doc("q-day-2", Verdict.INFECTED, slot, List.of(OTHER)),
        doc("q-day-3", Verdict.INFECTED, slot.plusSeconds(300), List.of(EICAR)));
    countRollups();
    TimeRange range = new TimeRange(day.minusSeconds(3600), day.plusSeconds(25 * 3600));
    assertThat(coveredSignatures(range).summedDays()).containsExactly(day);
    assertThat(queries().topSignatures(range, 10))
        .containsExactly(new SignatureCount(EICAR, 2), new SignatureCount(OTHER, 1));

    // a slot counted again leaves the day's sum stale: the day is read from its slots
    overwriteSlotCounts(slot, new SlotCounts(Map.of(), Map.of(OTHER, 5L)));
    assertThat(coveredSignatures(range).summedDays()).isEmpty();
    assertThat(queries().topSignatures(range, 10))
        .containsExactly(new SignatureCount(OTHER, 5), new SignatureCount(EICAR, 1));

    // a late document of the day: its slot is counted again and the day summed again
    record(doc("q-day-4", Verdict.INFECTED, slot.plusSeconds(120), List.of(EICAR)));
    countRollups();
    assertThat(coveredSignatures(range).summedDays()).containsExactly(day);
    assertThat(queries().topSignatures(range, 10))
        .containsExactly(new SignatureCount(EICAR, 3), new SignatureCount(OTHER, 1));
  }

  @Test
  void bySha256FindsTheNewestAcrossTheLastDayAndTheRest() throws Exception {
    String sha = "4".repeat(64);
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    MessageInfo hour = doc("q-win-hour", Verdict.CLEAN, now.minusSeconds(3600), sha);
    MessageInfo days = doc("q-win-days", Verdict.CLEAN, now.minusSeconds(3 * 86_400), sha);
    MessageInfo month = doc("q-win-month", Verdict.CLEAN, now.minusSeconds(30 * 86_400), sha);
    MessageInfo year = doc("q-win-year", Verdict.CLEAN, now.minusSeconds(365 * 86_400), sha);
    record(month, hour, year, days);
    assertThat(queries().bySha256(sha, 10)).containsExactly(hour, days, month, year);
    assertThat(queries().bySha256(sha, 2)).containsExactly(hour, days);
    assertThat(queries().bySha256(sha, 3)).containsExactly(hour, days, month);
  }

  private static MessageInfo doc(String id, Verdict verdict, Instant at, List<String> sigs) {
    return HistoryDocs.message("queries", id, verdict, at, S1, sigs);
  }

  private static MessageInfo doc(String id, Verdict verdict, Instant at, String sha) {
    return HistoryDocs.message("queries", id, verdict, at, sha, List.of());
  }

  private void record(MessageInfo... docs) throws Exception {
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    for (MessageInfo doc : docs) {
      futures.add(recorder().record(doc));
    }
    CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    // searchable (their dirty markers with them), so that counting the slots finds them
    TimeRange around = new TimeRange(Instant.EPOCH, Instant.parse("2100-01-01T00:00:00Z"));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            queries().recent(around, 500, HistoryOrder.NEWEST_FIRST).containsAll(List.of(docs)));
  }

  @Test
  void verdictsPerHourCountsEveryHourOfTheRange() throws Exception {
    recordDataSet();
    TimeRange range = new TimeRange(H10.minusSeconds(3600), H10.plusSeconds(3 * 3600));
    List<HourlyVerdictCounts> hours = queries().verdictsPerHour(range);
    assertThat(hours)
        .containsExactly(
            new HourlyVerdictCounts(H10.minusSeconds(3600), Map.of(Verdict.ERROR, 1L)),
            new HourlyVerdictCounts(H10, Map.of(Verdict.CLEAN, 1L, Verdict.INFECTED, 2L)),
            new HourlyVerdictCounts(
                H10.plusSeconds(3600), Map.of(Verdict.UNSCANNABLE, 1L, Verdict.INFECTED, 2L)),
            new HourlyVerdictCounts(H10.plusSeconds(7200), Map.of(Verdict.INFECTED, 1L)));

    TimeRange empty = new TimeRange(H10.minusSeconds(5 * 3600), H10.minusSeconds(3 * 3600));
    assertThat(queries().verdictsPerHour(empty))
        .extracting(HourlyVerdictCounts::total)
        .containsExactly(0L, 0L);
  }
}
