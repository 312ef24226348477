package io.github.avgateway.solr;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
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
 * Counts per verdict per hour: the hours the per-slot counts cover ({@link RollupCoverage}) from
 * those counts, the others (the current hour, hours with late documents, the partial hours at the
 * ends of a range) with a range facet by hour on their documents. The answer is the same as a facet
 * over every document of the range; its cost grows with the hours and the live hours' documents,
 * not with the index.
 */
final class HourlyVerdictQuery {

  private final SolrClient client;
  private final String collection;
  private final RollupSlots slots;

  HourlyVerdictQuery(SolrClient client, String collection, RollupSlots slots) {
    this.client = client;
    this.collection = collection;
    this.slots = slots;
  }

  List<HourlyVerdictCounts> run(TimeRange range) {
    Instant start = range.from().truncatedTo(ChronoUnit.HOURS);
    RollupCoverage coverage = RollupCoverage.read(client, collection, slots, range);
    Map<Instant, Map<Verdict, Long>> found = new HashMap<>();
    coverage.covered().forEach((hour, counts) -> found.put(hour, counts.verdicts()));
    if (!coverage.live().isEmpty()) {
      found.putAll(countLive(start, range, coverage.live()));
    }
    List<HourlyVerdictCounts> result = new ArrayList<>();
    for (Instant hour = start; hour.isBefore(range.to()); hour = hour.plus(1, ChronoUnit.HOURS)) {
      result.add(new HourlyVerdictCounts(hour, found.getOrDefault(hour, Map.of())));
    }
    return result;
  }

  /**
   * A range facet by hour over the live hours' documents. Method {@code dv} reads the receipt time
   * of each document found; the default method would run a range query per hour bucket.
   */
  private Map<Instant, Map<Verdict, Long>> countLive(
      Instant start, TimeRange range, List<TimeRange> live) {
    Instant from = live.getFirst().from().truncatedTo(ChronoUnit.HOURS);
    Instant to = RollupCoverage.ceilHour(live.getLast().to());
    RangeFacetMap hours =
        new RangeFacetMap(HistoryFields.RECEIVED_AT, Date.from(from), Date.from(to), "+1HOUR")
            .setMinCount(1)
            .withSubFacet(
                "verdicts",
                new TermsFacetMap(HistoryFields.VERDICT).setLimit(Verdict.values().length));
    hours.put("method", "dv");
    JsonQueryRequest request =
        new JsonQueryRequest()
            .setQuery("*:*")
            .withFilter(DocumentSearch.DOCUMENTS_ONLY)
            .withFilter(DocumentSearch.filter(RollupCoverage.anyOf(live)))
            .setLimit(0)
            .withFacet("hours", hours);
    QueryResponse response = SolrHistoryQueries.call(() -> request.process(client, collection));
    return buckets(response);
  }

  private static Map<Instant, Map<Verdict, Long>> buckets(QueryResponse response) {
    Map<Instant, Map<Verdict, Long>> found = new HashMap<>();
    NestableJsonFacet facets = response.getJsonFacetingResponse();
    BucketBasedJsonFacet hours = facets == null ? null : facets.getBucketBasedFacets("hours");
    if (hours != null) {
      for (BucketJsonFacet bucket : hours.getBuckets()) {
        found.put(((Date) bucket.getVal()).toInstant(), counts(bucket));
      }
    }
    return found;
  }

  private static Map<Verdict, Long> counts(BucketJsonFacet hour) {
    Map<Verdict, Long> counts = new EnumMap<>(Verdict.class);
    BucketBasedJsonFacet verdicts = hour.getBucketBasedFacets("verdicts");
    if (verdicts != null) {
      for (BucketJsonFacet bucket : verdicts.getBuckets()) {
        counts.put(Verdict.valueOf(bucket.getVal().toString()), bucket.getCount());
      }
    }
    return counts;
  }
}
