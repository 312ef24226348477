package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;

/**
 * Which slots of a range the per-slot counts answer, and their counts, read in one request that
 * fetches the range's rollup documents and dirty markers (4,464 rollups for 31 days of ten-minute
 * slots, whatever the number of scans) and adds them up here: cheaper than any facet over them,
 * since a facet by hour visits its range once per hour. Every batch of documents marks its slots
 * dirty in the same request, and a marker goes only when the slot's counts are written, so a slot
 * with neither counts nor a marker has no documents. A slot is <em>covered</em> when it lies wholly
 * in the range, it is not marked dirty and no counts of another slot length (an earlier {@code
 * rollup.slot}) overlap it; the rest of the range is <em>live</em>: counted from its documents. So
 * the documents counted are those of the current slot, of slots with late documents and of the
 * partial slots at the ends of the range, never of a whole partial hour. Only the verdict counts
 * are read (a slot's signature list can be hundreds of names: a month of them is megabytes); {@link
 * CoveredSignatures} reads signatures by the day.
 *
 * @param covered the covered slots' verdict counts, by slot start (empty counts when read without
 *     them)
 * @param live the rest of the range as ranges, contiguous slots merged
 * @param dayDigests per UTC day of the range, the digest of its slot rollups ({@link
 *     RollupSlots#digest}), to tell whether a day's sum is current
 */
record RollupCoverage(
    Map<Instant, SlotCounts> covered, List<TimeRange> live, Map<Instant, Long> dayDigests) {

  /** Most live ranges a query filters by (each is a clause of one boolean query). */
  private static final int MAX_RANGES = 200;

  /**
   * Reads the coverage of {@code range} from the store, for counts of {@code slots}' length, with
   * the covered slots' verdict counts or without them ({@code withCounts}).
   */
  static RollupCoverage read(
      SolrClient client,
      String collection,
      RollupSlots slots,
      TimeRange range,
      boolean withCounts) {
    long slotMillis = slots.length().toMillis();
    Instant first = slots.slotOf(range.from());
    Instant end = ceil(range.to(), slotMillis);
    long slotsInRange = Duration.between(first, end).toMillis() / slotMillis;
    // The kind leads (a few thousand documents); the range then checks their docValues only.
    SolrQuery query =
        new SolrQuery(
            HistoryFields.KIND + ":(" + RollupSlots.ROLLUP + " OR " + RollupSlots.DIRTY + ")");
    query.addFilterQuery(
        DocumentSearch.filter(
            SolrSyntax.range(HistoryFields.RECEIVED_AT, new TimeRange(first, end))));
    query.setFields(
        HistoryFields.KIND,
        HistoryFields.RECEIVED_AT,
        HistoryFields.SLOT_MILLIS,
        HistoryFields.VERSION);
    if (withCounts) {
      query.addField(HistoryFields.COUNTS);
    }
    query.setRows(Math.toIntExact(Math.min(Integer.MAX_VALUE / 2, 2 * slotsInRange + 100)));
    List<SolrDocument> docs =
        SolrHistoryQueries.call(() -> client.query(collection, query)).getResults();
    return of(range, slots, docs);
  }

  private static RollupCoverage of(TimeRange range, RollupSlots slots, List<SolrDocument> docs) {
    long slotMillis = slots.length().toMillis();
    Set<Instant> unusable = new HashSet<>();
    Map<Instant, SlotCounts> counted = new HashMap<>();
    Map<Instant, Long> dayDigests = new HashMap<>();
    for (SolrDocument doc : docs) {
      Instant slot = ((Date) doc.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
      long length = ((Number) doc.getFirstValue(HistoryFields.SLOT_MILLIS)).longValue();
      if (RollupSlots.DIRTY.equals(doc.getFirstValue(HistoryFields.KIND)) || length != slotMillis) {
        // every slot of ours that overlaps [slot, slot + length)
        for (Instant s = slots.slotOf(slot);
            s.isBefore(slot.plusMillis(length));
            s = s.plusMillis(slotMillis)) {
          unusable.add(s);
        }
      } else {
        counted.put(slot, SlotCounts.parse((String) doc.getFirstValue(HistoryFields.COUNTS), null));
        long version = ((Number) doc.getFirstValue(HistoryFields.VERSION)).longValue();
        dayDigests.merge(RollupSlots.dayOf(slot), RollupSlots.digest(slot, version), Long::sum);
      }
    }
    Map<Instant, SlotCounts> covered = new HashMap<>();
    List<TimeRange> live = new ArrayList<>();
    Instant liveFrom = null;
    Instant end = ceil(range.to(), slotMillis);
    for (Instant s = slots.slotOf(range.from()); s.isBefore(end); s = s.plusMillis(slotMillis)) {
      Instant next = s.plusMillis(slotMillis);
      boolean whole = !s.isBefore(range.from()) && !next.isAfter(range.to());
      if (whole && !unusable.contains(s)) {
        covered.put(s, counted.getOrDefault(s, SlotCounts.empty()));
        if (liveFrom != null) {
          live.add(clip(range, liveFrom, s));
          liveFrom = null;
        }
      } else if (liveFrom == null) {
        liveFrom = s;
      }
    }
    if (liveFrom != null) {
      live.add(clip(range, liveFrom, end));
    }
    if (live.size() > MAX_RANGES) {
      // Too fragmented to filter by (many slots with late documents): count all from documents.
      return new RollupCoverage(Map.of(), List.of(range), Map.of());
    }
    return new RollupCoverage(covered, live, dayDigests);
  }

  /** A filter matching {@code receivedAt} in any of {@code ranges} (which must not be empty). */
  static String anyOf(List<TimeRange> ranges) {
    List<String> clauses = new ArrayList<>(ranges.size());
    ranges.forEach(r -> clauses.add(SolrSyntax.range(HistoryFields.RECEIVED_AT, r)));
    return "(" + String.join(" OR ", clauses) + ")";
  }

  private static TimeRange clip(TimeRange range, Instant from, Instant to) {
    Instant start = from.isBefore(range.from()) ? range.from() : from;
    Instant stop = to.isAfter(range.to()) ? range.to() : to;
    return new TimeRange(start, stop);
  }

  /** The first multiple of {@code millis} since the epoch at or after {@code instant}. */
  static Instant ceil(Instant instant, long millis) {
    long floor = Math.floorDiv(instant.toEpochMilli(), millis) * millis;
    return Instant.ofEpochMilli(floor == instant.toEpochMilli() ? floor : floor + millis);
  }
}
