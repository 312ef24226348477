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
 * The history's counts over a range: verdicts per hour and the most frequent signatures. The hours
 * the per-slot counts cover ({@link RollupCoverage}) are read from those counts, the others (the
 * current hour, hours with late documents, the partial hours at the ends of a range) are counted
 * from their documents with a facet; the signatures of whole covered days come from the days' sums
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
    coverage.covered().forEach((hour, counts) -> found.put(hour, counts.verdicts()));
    if (!coverage.live().isEmpty()) {
      found.putAll(hoursOf(ask(coverage.live(), liveHours(coverage.live()))));
    }
    List<HourlyVerdictCounts> result = new ArrayList<>();
    for (Instant hour = start; hour.isBefore(range.to()); hour = hour.plus(1, ChronoUnit.HOURS)) {
      result.add(new HourlyVerdictCounts(hour, found.getOrDefault(hour, Map.of())));
    }
    return result;
  }

  /** The {@code limit} most frequent signatures of {@code range}; ties by name. */
  List<SignatureCount> topSignatures(TimeRange range, int limit) {
    RollupCoverage coverage = RollupCoverage.read(client, collection, slots, range, false);
    Map<String, Long> counts = CoveredSignatures.read(client, collection, slots, coverage).counts();
    if (!coverage.live().isEmpty()) {
      TermsFacetMap signatures = new TermsFacetMap(HistoryFields.SIGNATURES).setLimit(-1);
      SolrRollups.buckets(ask(coverage.live(), signatures), "counts")
          .forEach((name, n) -> counts.merge(name, n, Long::sum));
    }
    return counts.entrySet().stream()
        .map(e -> new SignatureCount(e.getKey(), e.getValue()))
        .sorted(MOST_FIRST)
        .limit(limit)
        .toList();
  }

  /**
   * A range facet by hour over the live hours' documents, by verdict. Method {@code dv} reads the
   * receipt time of each document found; the default method would run a range query per bucket.
   */
  private static RangeFacetMap liveHours(List<TimeRange> live) {
    Instant from = live.getFirst().from().truncatedTo(ChronoUnit.HOURS);
    Instant to = RollupCoverage.ceilHour(live.getLast().to());
    RangeFacetMap hours =
        new RangeFacetMap(HistoryFields.RECEIVED_AT, Date.from(from), Date.from(to), "+1HOUR")
            .setMinCount(1)
            .withSubFacet(
                "verdicts",
                new TermsFacetMap(HistoryFields.VERDICT).setLimit(Verdict.values().length));
    hours.put("method", "dv");
    return hours;
  }

  /** One facet, named {@code counts}, over the history documents of the {@code live} ranges. */
  private QueryResponse ask(List<TimeRange> live, Map<String, Object> facet) {
    JsonQueryRequest request =
        new JsonQueryRequest()
            .setQuery(RollupCoverage.anyOf(live))
            .withFilter(DocumentSearch.DOCUMENTS_ONLY)
            .setLimit(0)
            .withFacet("counts", facet);
    return SolrHistoryQueries.call(() -> request.process(client, collection));
  }

  private static Map<Instant, Map<Verdict, Long>> hoursOf(QueryResponse response) {
    Map<Instant, Map<Verdict, Long>> found = new HashMap<>();
    NestableJsonFacet facets = response.getJsonFacetingResponse();
    BucketBasedJsonFacet hours = facets == null ? null : facets.getBucketBasedFacets("counts");
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
