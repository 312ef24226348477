package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;

/**
 * The signature counts of the hours a {@link RollupCoverage} covers: whole days from their day sums
 * ({@link DaySums}) where the sum's digest still matches the day's slot rollups, every other
 * covered hour from its slots' counts. A month is then about 30 day sums and the slots of the two
 * partial days at its ends, instead of 4,464 slot lists. The result equals the slots' counts added
 * up: a stale or missing day sum only costs reading that day's slots.
 *
 * @param counts documents per signature over the covered hours
 * @param summedDays the days answered from their day sums
 */
record CoveredSignatures(Map<String, Long> counts, Set<Instant> summedDays) {

  private static final long HOUR_MILLIS = RollupSlots.HOUR.toMillis();
  private static final int HOURS_PER_DAY = 24;
  private static final int MAX_RANGES = 200;

  static CoveredSignatures read(
      SolrClient client, String collection, RollupSlots slots, RollupCoverage coverage) {
    Map<String, Long> counts = new HashMap<>();
    Set<Instant> summed = summedDays(client, collection, slots, coverage, counts);
    Set<Instant> hours = new TreeSet<>(coverage.covered().keySet());
    hours.removeIf(hour -> summed.contains(RollupSlots.dayOf(hour)));
    if (!hours.isEmpty()) {
      addSlots(client, collection, slots, hours, counts);
    }
    return new CoveredSignatures(counts, summed);
  }

  /** Adds the current day sums of the wholly covered days to {@code counts}; returns those days. */
  private static Set<Instant> summedDays(
      SolrClient client,
      String collection,
      RollupSlots slots,
      RollupCoverage coverage,
      Map<String, Long> counts) {
    TreeSet<Instant> whole = wholeDays(coverage.covered().keySet());
    Set<Instant> summed = new HashSet<>();
    if (whole.isEmpty()) {
      return summed;
    }
    Instant first = whole.first();
    Instant end = whole.last().plus(RollupSlots.DAY_LENGTH);
    SolrQuery query = new SolrQuery(SolrSyntax.term(HistoryFields.KIND, RollupSlots.DAY));
    query.addFilterQuery(
        DocumentSearch.filter(
            SolrSyntax.range(HistoryFields.RECEIVED_AT, new TimeRange(first, end))));
    query.setFields(
        HistoryFields.RECEIVED_AT,
        HistoryFields.SLOT_MILLIS,
        HistoryFields.SIGNATURE_COUNTS,
        HistoryFields.SOURCE_DIGEST);
    query.setRows(whole.size() + 10);
    for (SolrDocument day :
        SolrHistoryQueries.call(() -> client.query(collection, query)).getResults()) {
      Instant start = ((Date) day.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
      long length = ((Number) day.getFirstValue(HistoryFields.SLOT_MILLIS)).longValue();
      long digest = ((Number) day.getFirstValue(HistoryFields.SOURCE_DIGEST)).longValue();
      if (whole.contains(start)
          && length == slots.length().toMillis()
          && digest == coverage.dayDigests().getOrDefault(start, 0L)
          && summed.add(start)) {
        addTo(counts, day);
      }
    }
    return summed;
  }

  /** The days all of whose hours are in {@code hours}, in order. */
  private static TreeSet<Instant> wholeDays(Set<Instant> hours) {
    Map<Instant, Integer> perDay = new HashMap<>();
    hours.forEach(hour -> perDay.merge(RollupSlots.dayOf(hour), 1, Integer::sum));
    TreeSet<Instant> whole = new TreeSet<>();
    perDay.forEach((day, n) -> {
      if (n == HOURS_PER_DAY) {
        whole.add(day);
      }
    });
    return whole;
  }

  /** Adds the signature counts of the slots of {@code hours} (in order) to {@code counts}. */
  private static void addSlots(
      SolrClient client,
      String collection,
      RollupSlots slots,
      Set<Instant> hours,
      Map<String, Long> counts) {
    List<TimeRange> ranges = ranges(hours);
    Instant first = ranges.getFirst().from();
    Instant end = ranges.getLast().to();
    String within =
        ranges.size() <= MAX_RANGES
            ? RollupCoverage.anyOf(ranges)
            : SolrSyntax.range(HistoryFields.RECEIVED_AT, new TimeRange(first, end));
    SolrQuery query = new SolrQuery(SolrSyntax.term(HistoryFields.KIND, RollupSlots.ROLLUP));
    query.addFilterQuery(DocumentSearch.filter(within));
    query.setFields(
        HistoryFields.RECEIVED_AT, HistoryFields.SLOT_MILLIS, HistoryFields.SIGNATURE_COUNTS);
    long slotMillis = slots.length().toMillis();
    query.setRows(
        Math.toIntExact(
            Math.min(Integer.MAX_VALUE / 2, 2 * hours.size() * (HOUR_MILLIS / slotMillis) + 100)));
    for (SolrDocument slot :
        SolrHistoryQueries.call(() -> client.query(collection, query)).getResults()) {
      Instant start = ((Date) slot.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
      long length = ((Number) slot.getFirstValue(HistoryFields.SLOT_MILLIS)).longValue();
      if (length == slotMillis && hours.contains(start.truncatedTo(ChronoUnit.HOURS))) {
        addTo(counts, slot);
      }
    }
  }

  private static void addTo(Map<String, Long> counts, SolrDocument doc) {
    String text = (String) doc.getFirstValue(HistoryFields.SIGNATURE_COUNTS);
    SlotCounts.parse(null, text).signatures().forEach((s, n) -> counts.merge(s, n, Long::sum));
  }

  /** {@code hours} (ordered) as ranges, contiguous hours merged. */
  private static List<TimeRange> ranges(Set<Instant> hours) {
    List<TimeRange> ranges = new ArrayList<>();
    Instant from = null;
    Instant to = null;
    for (Instant hour : hours) {
      if (to == null || !hour.equals(to)) {
        if (from != null) {
          ranges.add(new TimeRange(from, to));
        }
        from = hour;
      }
      to = hour.plusMillis(HOUR_MILLIS);
    }
    ranges.add(new TimeRange(from, to));
    return ranges;
  }
}
