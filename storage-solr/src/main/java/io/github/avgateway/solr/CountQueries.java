package io.github.avgateway.solr;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.RangeFacetMap;
import org.apache.solr.client.solrj.request.json.TermsFacetMap;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.response.json.BucketBasedJsonFacet;
import org.apache.solr.client.solrj.response.json.BucketJsonFacet;
import org.apache.solr.client.solrj.response.json.NestableJsonFacet;

/**
 * The history's counts over a range: verdicts per hour and the most frequent signatures. The slots
 * the per-slot counts cover ({@link RollupCoverage}) are read from those counts, the rest (the
 * current slot, slots with late documents, the partial slots at the ends of a range) is counted
 * from its documents with a facet; the signatures of whole covered days come from the days' sums
 * ({@link CoveredSignatures}). The answer is the same as a facet over every document of the range;
 * its cost grows with the hours and the live hours' documents, not with the index.
 */
final class CountQueries {

  private static final Comparator<SignatureCount> MOST_FIRST =
      Comparator.comparingLong(SignatureCount::count)
          .reversed()
          .thenComparing(SignatureCount::signature);

  private final SolrClient client;
  private final String collection;
  private final RollupSlots slots;

  CountQueries(SolrClient client, String collection, RollupSlots slots) {
    this.client = client;
    this.collection = collection;
    this.slots = slots;
  }

  /** Counts per verdict for every hour starting in {@code range}, oldest first, zeros included. */
  List<HourlyVerdictCounts> verdictsPerHour(TimeRange range) {
    Instant start = range.from().truncatedTo(ChronoUnit.HOURS);
    RollupCoverage coverage = RollupCoverage.read(client, collection, slots, range, true);
    Map<Instant, Map<Verdict, Long>> found = new HashMap<>();
    coverage.covered().forEach((slot, counts) -> add(found, hourOf(slot), counts.verdicts()));
    if (!coverage.live().isEmpty()) {
      liveVerdicts(coverage.live()).forEach((hour, counts) -> add(found, hour, counts));
    }
    List<HourlyVerdictCounts> result = new ArrayList<>();
    for (Instant hour = start; hour.isBefore(range.to()); hour = hour.plus(1, ChronoUnit.HOURS)) {
      result.add(new HourlyVerdictCounts(hour, found.getOrDefault(hour, Map.of())));
    }
    return result;
  }

  private static Instant hourOf(Instant slot) {
    return slot.truncatedTo(ChronoUnit.HOURS);
  }

  private static void add(
      Map<Instant, Map<Verdict, Long>> found, Instant hour, Map<Verdict, Long> counts) {
    Map<Verdict, Long> sum = found.computeIfAbsent(hour, h -> new EnumMap<>(Verdict.class));
    counts.forEach((v, n) -> sum.merge(v, n, Long::sum));
  }

  /** The {@code limit} most frequent signatures of {@code range}; ties by name. */
  List<SignatureCount> topSignatures(TimeRange range, int limit) {
    RollupCoverage coverage = RollupCoverage.read(client, collection, slots, range, false);
    Map<String, Long> counts = CoveredSignatures.read(client, collection, slots, coverage).counts();
    if (!coverage.live().isEmpty()) {
      TermsFacetMap signatures = new TermsFacetMap(HistoryFields.SIGNATURES).setLimit(-1);
      QueryResponse response = ask(documentsOf(coverage.live()).withFacet("counts", signatures));
      SolrRollups.buckets(response, "counts")
          .forEach((name, n) -> counts.merge(name, n, Long::sum));
    }
    return counts.entrySet().stream()
        .map(e -> new SignatureCount(e.getKey(), e.getValue()))
        .sorted(MOST_FIRST)
        .limit(limit)
        .toList();
  }

  /**
   * The verdicts per hour of the documents in the {@code live} ranges: one range facet by hour per
   * span of hours the ranges touch. A range facet computes each bucket's documents with a range
   * query over the whole index, so one facet spanning a month would visit every document of the
   * month; a span holds only the hours with live documents, and no hour is in two spans.
   */
  private Map<Instant, Map<Verdict, Long>> liveVerdicts(List<TimeRange> live) {
    List<TimeRange> spans = hourSpans(live);
    JsonQueryRequest request = documentsOf(live);
    for (int i = 0; i < spans.size(); i++) {
      TimeRange span = spans.get(i);
      request.withFacet(
          "hours" + i,
          new RangeFacetMap(
                  HistoryFields.RECEIVED_AT, Date.from(span.from()), Date.from(span.to()), "+1HOUR")
              .setMinCount(1)
              .withSubFacet(
                  "verdicts",
                  new TermsFacetMap(HistoryFields.VERDICT).setLimit(Verdict.values().length)));
    }
    QueryResponse response = ask(request);
    Map<Instant, Map<Verdict, Long>> found = new HashMap<>();
    for (int i = 0; i < spans.size(); i++) {
      found.putAll(hoursOf(response, "hours" + i));
    }
    return found;
  }

  /** The hours {@code live} (ordered) touches, as ranges of whole hours, touching ones merged. */
  static List<TimeRange> hourSpans(List<TimeRange> live) {
    long hour = RollupSlots.HOUR.toMillis();
    List<TimeRange> spans = new ArrayList<>();
    for (TimeRange range : live) {
      Instant from = range.from().truncatedTo(ChronoUnit.HOURS);
      Instant to = RollupCoverage.ceil(range.to(), hour);
      if (!spans.isEmpty() && !from.isAfter(spans.getLast().to())) {
        TimeRange last = spans.removeLast();
        spans.add(new TimeRange(last.from(), to.isAfter(last.to()) ? to : last.to()));
      } else {
        spans.add(new TimeRange(from, to));
      }
    }
    return spans;
  }

  /** A request for the history documents of the {@code live} ranges, no rows. */
  private static JsonQueryRequest documentsOf(List<TimeRange> live) {
    return new JsonQueryRequest()
        .setQuery(RollupCoverage.anyOf(live))
        .withFilter(DocumentSearch.DOCUMENTS_ONLY)
        .setLimit(0);
  }

  private QueryResponse ask(JsonQueryRequest request) {
    return SolrHistoryQueries.call(() -> request.process(client, collection));
  }

  private static Map<Instant, Map<Verdict, Long>> hoursOf(QueryResponse response, String name) {
    Map<Instant, Map<Verdict, Long>> found = new HashMap<>();
    NestableJsonFacet facets = response.getJsonFacetingResponse();
    BucketBasedJsonFacet hours = facets == null ? null : facets.getBucketBasedFacets(name);
    if (hours != null) {
      for (BucketJsonFacet hour : hours.getBuckets()) {
        Map<Verdict, Long> counts = new EnumMap<>(Verdict.class);
        BucketBasedJsonFacet verdicts = hour.getBucketBasedFacets("verdicts");
        if (verdicts != null) {
          for (BucketJsonFacet bucket : verdicts.getBuckets()) {
            counts.put(Verdict.valueOf(bucket.getVal().toString()), bucket.getCount());
          }
        }
        found.put(((Date) hour.getVal()).toInstant(), counts);
      }
    }
    return found;
  }
}
