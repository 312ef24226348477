package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
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
 * The signature counts of the slots a {@link RollupCoverage} covers: whole days from their day sums
 * ({@link DaySums}) where the sum's digest still matches the day's slot rollups, every other
 * covered slot from its own counts. A month is then about 30 day sums and the slots of the two
 * partial days at its ends, instead of 4,464 slot lists. The result equals the slots' counts added
 * up: a stale or missing day sum only costs reading that day's slots.
 *
 * @param counts documents per signature over the covered slots
 * @param summedDays the days answered from their day sums
 */
record CoveredSignatures(Map<String, Long> counts, Set<Instant> summedDays) {

  private static final int MAX_RANGES = 200;

  static CoveredSignatures read(
      SolrClient client, String collection, RollupSlots slots, RollupCoverage coverage) {
    Map<String, Long> counts = new HashMap<>();
    Set<Instant> summed = summedDays(client, collection, slots, coverage, counts);
    TreeSet<Instant> rest = new TreeSet<>(coverage.covered().keySet());
    rest.removeIf(slot -> summed.contains(RollupSlots.dayOf(slot)));
    if (!rest.isEmpty()) {
      addSlots(client, collection, slots, rest, counts);
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
    TreeSet<Instant> whole = wholeDays(coverage.covered().keySet(), slots);
    Set<Instant> summed = new HashSet<>();
    if (whole.isEmpty()) {
      return summed;
    }
    TimeRange days = new TimeRange(whole.first(), whole.last().plus(RollupSlots.DAY_LENGTH));
    SolrQuery query = RollupSlots.ofKind(RollupSlots.DAY, days);
    query.setFields(
        HistoryFields.RECEIVED_AT,
        HistoryFields.SLOT_MILLIS,
        HistoryFields.SIGNATURE_COUNTS,
        HistoryFields.SOURCE_DIGEST);
    query.setRows(whole.size() + 10);
    for (SolrDocument day : results(client, collection, query)) {
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

  /** The days all of whose slots are in {@code covered}, in order. */
  private static TreeSet<Instant> wholeDays(Set<Instant> covered, RollupSlots slots) {
    long slotsPerDay = RollupSlots.DAY_LENGTH.toMillis() / slots.length().toMillis();
    Map<Instant, Integer> perDay = new HashMap<>();
    covered.forEach(slot -> perDay.merge(RollupSlots.dayOf(slot), 1, Integer::sum));
    TreeSet<Instant> whole = new TreeSet<>();
    perDay.forEach((day, n) -> {
      if (n == slotsPerDay) {
        whole.add(day);
      }
    });
    return whole;
  }

  /** Adds the signature counts of the slots {@code wanted} (in order) to {@code counts}. */
  private static void addSlots(
      SolrClient client,
      String collection,
      RollupSlots slots,
      TreeSet<Instant> wanted,
      Map<String, Long> counts) {
    long slotMillis = slots.length().toMillis();
    List<TimeRange> ranges = ranges(wanted, slotMillis);
    String within =
        ranges.size() <= MAX_RANGES
            ? RollupCoverage.anyOf(ranges)
            : SolrSyntax.range(
                HistoryFields.RECEIVED_AT,
                new TimeRange(ranges.getFirst().from(), ranges.getLast().to()));
    SolrQuery query = new SolrQuery(SolrSyntax.term(HistoryFields.KIND, RollupSlots.ROLLUP));
    query.addFilterQuery(DocumentSearch.filter(within));
    query.setFields(
        HistoryFields.RECEIVED_AT, HistoryFields.SLOT_MILLIS, HistoryFields.SIGNATURE_COUNTS);
    query.setRows(Math.toIntExact(Math.min(Integer.MAX_VALUE / 2, 2L * wanted.size() + 100)));
    for (SolrDocument slot : results(client, collection, query)) {
      Instant start = ((Date) slot.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
      long length = ((Number) slot.getFirstValue(HistoryFields.SLOT_MILLIS)).longValue();
      if (length == slotMillis && wanted.contains(start)) {
        addTo(counts, slot);
      }
    }
  }

  private static List<SolrDocument> results(SolrClient client, String collection, SolrQuery query) {
    return SolrHistoryQueries.call(() -> client.query(collection, query)).getResults();
  }

  private static void addTo(Map<String, Long> counts, SolrDocument doc) {
    String text = (String) doc.getFirstValue(HistoryFields.SIGNATURE_COUNTS);
    SlotCounts.parse(null, text).signatures().forEach((s, n) -> counts.merge(s, n, Long::sum));
  }

  /** {@code slots} (ordered) as ranges, contiguous slots merged. */
  private static List<TimeRange> ranges(TreeSet<Instant> slots, long slotMillis) {
    List<TimeRange> ranges = new ArrayList<>();
    Instant from = null;
    Instant to = null;
    for (Instant slot : slots) {
      if (to == null || !slot.equals(to)) {
        if (from != null) {
          ranges.add(new TimeRange(from, to));
        }
        from = slot;
      }
      to = slot.plusMillis(slotMillis);
    }
    ranges.add(new TimeRange(from, to));
    return ranges;
  }
}
