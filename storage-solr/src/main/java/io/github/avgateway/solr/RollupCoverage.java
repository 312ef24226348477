package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
 * Which hours of a range the per-slot counts answer, and their counts, read in one request that
 * fetches the range's rollup documents and dirty markers (4,464 rollups for 31 days of ten-minute
 * slots, whatever the number of scans) and adds them up here: cheaper than any facet over them,
 * since a facet by hour visits its range once per hour. Every batch of documents marks its slots
 * dirty in the same request, and a marker goes only when the slot's counts are written, so a slot
 * with neither counts nor a marker has no documents. An hour is <em>covered</em> when it lies
 * wholly in the range, none of its slots is marked dirty and no counts of another slot length (an
 * earlier {@code rollup.slot}) are in it; every other hour of the range is <em>live</em>: counted
 * from its documents. Only the verdict counts are read (a slot's signature list can be hundreds of
 * names: a month of them is megabytes); {@link CoveredSignatures} reads signatures by the day.
 *
 * @param covered the covered hours' verdict counts, by hour start (empty when read without them)
 * @param live the live hours as ranges clipped to the query's range, contiguous hours merged
 * @param dayDigests per UTC day of the range, the digest of its slot rollups ({@link
 *     RollupSlots#digest}), to tell whether a day's sum is current
 */
record RollupCoverage(
    Map<Instant, SlotCounts> covered, List<TimeRange> live, Map<Instant, Long> dayDigests) {

  private static final long HOUR_MILLIS = RollupSlots.HOUR.toMillis();

  /** Most live ranges a query filters by (each is a clause of one boolean query). */
  private static final int MAX_RANGES = 200;

  /**
   * Reads the coverage of {@code range} from the store, for counts of {@code slots}' length, with
   * the covered hours' verdict counts or without them ({@code withCounts}).
   */
  static RollupCoverage read(
      SolrClient client,
      String collection,
      RollupSlots slots,
      TimeRange range,
      boolean withCounts) {
    Instant first = range.from().truncatedTo(ChronoUnit.HOURS);
    Instant end = ceilHour(range.to());
    long slotsInRange = Duration.between(first, end).toMillis() / slots.length().toMillis();
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
    return of(range, first, end, slots.length().toMillis(), docs);
  }

  private static RollupCoverage of(
      TimeRange range, Instant first, Instant end, long slotMillis, List<SolrDocument> docs) {
    Set<Instant> unusable = new HashSet<>();
    Map<Instant, SlotCounts> counted = new HashMap<>();
    Map<Instant, Long> dayDigests = new HashMap<>();
    for (SolrDocument doc : docs) {
      Instant slot = ((Date) doc.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
      Instant hour = slot.truncatedTo(ChronoUnit.HOURS);
      long length = ((Number) doc.getFirstValue(HistoryFields.SLOT_MILLIS)).longValue();
      if (RollupSlots.DIRTY.equals(doc.getFirstValue(HistoryFields.KIND)) || length != slotMillis) {
        unusable.add(hour);
      } else {
        SlotCounts counts =
            SlotCounts.parse((String) doc.getFirstValue(HistoryFields.COUNTS), null);
        counted.computeIfAbsent(hour, h -> SlotCounts.empty()).add(counts);
        long version = ((Number) doc.getFirstValue(HistoryFields.VERSION)).longValue();
        dayDigests.merge(RollupSlots.dayOf(slot), RollupSlots.digest(slot, version), Long::sum);
      }
    }
    Map<Instant, SlotCounts> covered = new HashMap<>();
    for (Instant hour = first; hour.isBefore(end); hour = hour.plusMillis(HOUR_MILLIS)) {
      boolean whole =
          !hour.isBefore(range.from()) && !hour.plusMillis(HOUR_MILLIS).isAfter(range.to());
      if (whole && !unusable.contains(hour)) {
        covered.put(hour, counted.getOrDefault(hour, SlotCounts.empty()));
      }
    }
    List<TimeRange> live = live(range, first, end, covered.keySet());
    if (live.size() > MAX_RANGES) {
      // Too fragmented to filter by (many hours with late documents): count all from documents.
      return new RollupCoverage(Map.of(), List.of(range), Map.of());
    }
    return new RollupCoverage(covered, live, dayDigests);
  }

  /** The hours of {@code [first, end)} not covered, as ranges clipped to {@code range}. */
  private static List<TimeRange> live(
      TimeRange range, Instant first, Instant end, Set<Instant> covered) {
    List<TimeRange> live = new ArrayList<>();
    Instant start = null;
    for (Instant hour = first; hour.isBefore(end); hour = hour.plusMillis(HOUR_MILLIS)) {
      if (covered.contains(hour)) {
        if (start != null) {
          live.add(clip(range, start, hour));
          start = null;
        }
      } else if (start == null) {
        start = hour;
      }
    }
    if (start != null) {
      live.add(clip(range, start, end));
    }
    return live;
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

  static Instant ceilHour(Instant instant) {
    Instant floor = instant.truncatedTo(ChronoUnit.HOURS);
    return floor.equals(instant) ? floor : floor.plusMillis(HOUR_MILLIS);
  }
}
