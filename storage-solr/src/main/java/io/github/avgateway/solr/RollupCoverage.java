package io.github.avgateway.solr;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.json.DomainMap;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.RangeFacetMap;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.response.json.BucketBasedJsonFacet;
import org.apache.solr.client.solrj.response.json.BucketJsonFacet;
import org.apache.solr.client.solrj.response.json.NestableJsonFacet;

/**
 * Which hours of a range the per-slot counts answer, and their counts per verdict, in one request
 * over the count documents (a few per slot, whatever the number of scans). Every batch of documents
 * marks its slots dirty in the same request, and a marker goes only when the slot's counts are
 * written, so a slot with neither counts nor a marker has no documents. An hour is <em>covered</em>
 * when it lies wholly in the range, none of its slots is marked dirty and no counts of another slot
 * length (an earlier {@code rollup.slot}) overlap it; every other hour of the range is <em>live
 * </em>: counted from its documents.
 *
 * @param covered the covered hours' counts per verdict, by hour start
 * @param live the live hours as ranges clipped to the query's range, contiguous hours merged
 */
record RollupCoverage(Map<Instant, Map<Verdict, Long>> covered, List<TimeRange> live) {

  private static final long HOUR_MILLIS = RollupSlots.HOUR.toMillis();

  /** Most live ranges a query filters by (each is a clause of one boolean query). */
  private static final int MAX_RANGES = 200;

  /** Reads the coverage of {@code range} from the store, for counts of {@code slots}' length. */
  static RollupCoverage read(
      SolrClient client, String collection, RollupSlots slots, TimeRange range) {
    Instant first = range.from().truncatedTo(ChronoUnit.HOURS);
    Instant end = ceilHour(range.to());
    String length = slots.lengthFilter();
    RangeFacetMap counted =
        hours(first, end)
            .withDomain(new DomainMap().withFilter(kind(RollupSlots.ROLLUP)).withFilter(length));
    for (Verdict verdict : Verdict.values()) {
      String field = SolrRollups.countField(verdict);
      counted.withStatSubFacet(field, "sum(" + field + ")");
    }
    RangeFacetMap dirty =
        hours(first, end).withDomain(new DomainMap().withFilter(kind(RollupSlots.DIRTY)));
    RangeFacetMap foreign =
        hours(first, end)
            .withDomain(
                new DomainMap().withFilter(kind(RollupSlots.ROLLUP)).withFilter("-" + length));
    JsonQueryRequest request =
        new JsonQueryRequest()
            .setQuery("*:*")
            .withFilter(
                DocumentSearch.filter(
                    HistoryFields.KIND
                        + ":("
                        + RollupSlots.ROLLUP
                        + " OR "
                        + RollupSlots.DIRTY
                        + ")"))
            .withFilter(
                DocumentSearch.filter(
                    SolrSyntax.range(HistoryFields.RECEIVED_AT, new TimeRange(first, end))))
            .setLimit(0)
            .withFacet("counted", counted)
            .withFacet("dirty", dirty)
            .withFacet("foreign", foreign);
    QueryResponse response = SolrHistoryQueries.call(() -> request.process(client, collection));
    return of(range, first, end, response);
  }

  private static RollupCoverage of(
      TimeRange range, Instant first, Instant end, QueryResponse response) {
    Set<Instant> unusable = new HashSet<>(nonEmpty(response, "dirty"));
    unusable.addAll(nonEmpty(response, "foreign"));
    Map<Instant, Map<Verdict, Long>> counted = new HashMap<>();
    for (BucketJsonFacet bucket : buckets(response, "counted")) {
      Map<Verdict, Long> counts = new EnumMap<>(Verdict.class);
      for (Verdict verdict : Verdict.values()) {
        long n = sum(bucket, SolrRollups.countField(verdict));
        if (n > 0) {
          counts.put(verdict, n);
        }
      }
      counted.put(((Date) bucket.getVal()).toInstant(), counts);
    }
    Map<Instant, Map<Verdict, Long>> covered = new HashMap<>();
    for (Instant hour = first; hour.isBefore(end); hour = hour.plusMillis(HOUR_MILLIS)) {
      boolean whole =
          !hour.isBefore(range.from()) && !hour.plusMillis(HOUR_MILLIS).isAfter(range.to());
      if (whole && !unusable.contains(hour)) {
        covered.put(hour, counted.getOrDefault(hour, Map.of()));
      }
    }
    List<TimeRange> live = live(range, first, end, covered.keySet());
    if (live.size() > MAX_RANGES) {
      // Too fragmented to filter by (many hours with late documents): count all from documents.
      return new RollupCoverage(Map.of(), List.of(range));
    }
    return new RollupCoverage(covered, live);
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

  /** The covered hours as ranges, contiguous hours merged. */
  List<TimeRange> coveredRanges() {
    List<Instant> hours = new ArrayList<>(covered.keySet());
    hours.sort(null);
    List<TimeRange> ranges = new ArrayList<>();
    Instant start = null;
    Instant previous = null;
    for (Instant hour : hours) {
      if (start == null || !hour.equals(previous.plusMillis(HOUR_MILLIS))) {
        if (start != null) {
          ranges.add(new TimeRange(start, previous.plusMillis(HOUR_MILLIS)));
        }
        start = hour;
      }
      previous = hour;
    }
    if (start != null) {
      ranges.add(new TimeRange(start, previous.plusMillis(HOUR_MILLIS)));
    }
    return ranges;
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

  private static Set<Instant> nonEmpty(QueryResponse response, String facet) {
    Set<Instant> hours = new HashSet<>();
    for (BucketJsonFacet bucket : buckets(response, facet)) {
      if (bucket.getCount() > 0) {
        hours.add(((Date) bucket.getVal()).toInstant());
      }
    }
    return hours;
  }

  private static RangeFacetMap hours(Instant first, Instant end) {
    return new RangeFacetMap(HistoryFields.RECEIVED_AT, Date.from(first), Date.from(end), "+1HOUR")
        .setMinCount(1);
  }

  private static String kind(String kind) {
    return SolrSyntax.term(HistoryFields.KIND, kind);
  }

  static Instant ceilHour(Instant instant) {
    Instant floor = instant.truncatedTo(ChronoUnit.HOURS);
    return floor.equals(instant) ? floor : floor.plusMillis(HOUR_MILLIS);
  }

  private static List<BucketJsonFacet> buckets(QueryResponse response, String name) {
    NestableJsonFacet facets = response.getJsonFacetingResponse();
    BucketBasedJsonFacet facet = facets == null ? null : facets.getBucketBasedFacets(name);
    return facet == null ? List.of() : facet.getBuckets();
  }

  private static long sum(BucketJsonFacet bucket, String stat) {
    Object value = bucket.getStatValue(stat);
    return value == null ? 0 : ((Number) value).longValue();
  }
}
