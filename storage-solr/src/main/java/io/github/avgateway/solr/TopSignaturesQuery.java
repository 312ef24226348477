package io.github.avgateway.solr;

import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.TermsFacetMap;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.response.json.BucketBasedJsonFacet;
import org.apache.solr.client.solrj.response.json.BucketJsonFacet;
import org.apache.solr.client.solrj.response.json.NestableJsonFacet;

/**
 * The most frequent signatures of a range: the per-signature counts of the covered hours ({@link
 * RollupCoverage}) added to a signature facet over the live hours' documents. Same answer as a
 * facet over every document of the range; ties go to the signature that sorts first.
 */
final class TopSignaturesQuery {

  private static final Comparator<SignatureCount> MOST_FIRST =
      Comparator.comparingLong(SignatureCount::count)
          .reversed()
          .thenComparing(SignatureCount::signature);

  private final SolrClient client;
  private final String collection;
  private final RollupSlots slots;

  TopSignaturesQuery(SolrClient client, String collection, RollupSlots slots) {
    this.client = client;
    this.collection = collection;
    this.slots = slots;
  }

  List<SignatureCount> run(TimeRange range, int limit) {
    RollupCoverage coverage = RollupCoverage.read(client, collection, slots, range);
    Map<String, Long> counts = new HashMap<>();
    List<TimeRange> covered = coverage.coveredRanges();
    if (!covered.isEmpty()) {
      TermsFacetMap signatures =
          new TermsFacetMap(HistoryFields.SIGNATURES)
              .setLimit(-1)
              .withStatSubFacet("n", "sum(" + HistoryFields.COUNT + ")");
      String kind = SolrSyntax.term(HistoryFields.KIND, RollupSlots.ROLLUP_SIG);
      add(counts, ask(kind, List.of(slots.lengthFilter()), covered, signatures), true);
    }
    if (!coverage.live().isEmpty()) {
      TermsFacetMap signatures = new TermsFacetMap(HistoryFields.SIGNATURES).setLimit(-1);
      add(
          counts,
          ask(DocumentSearch.DOCUMENTS_ONLY, List.of(), coverage.live(), signatures),
          false);
    }
    return counts.entrySet().stream()
        .map(e -> new SignatureCount(e.getKey(), e.getValue()))
        .sorted(MOST_FIRST)
        .limit(limit)
        .toList();
  }

  private BucketBasedJsonFacet ask(
      String kind, List<String> filters, List<TimeRange> ranges, TermsFacetMap facet) {
    JsonQueryRequest request =
        new JsonQueryRequest().setQuery("*:*").withFilter(DocumentSearch.filter(kind));
    filters.forEach(f -> request.withFilter(DocumentSearch.filter(f)));
    request
        .withFilter(DocumentSearch.filter(RollupCoverage.anyOf(ranges)))
        .setLimit(0)
        .withFacet("signatures", facet);
    QueryResponse response = SolrHistoryQueries.call(() -> request.process(client, collection));
    NestableJsonFacet facets = response.getJsonFacetingResponse();
    return facets == null ? null : facets.getBucketBasedFacets("signatures");
  }

  private static void add(Map<String, Long> counts, BucketBasedJsonFacet facet, boolean summed) {
    if (facet == null) {
      return;
    }
    for (BucketJsonFacet bucket : facet.getBuckets()) {
      long n = summed ? ((Number) bucket.getStatValue("n")).longValue() : bucket.getCount();
      counts.merge(bucket.getVal().toString(), n, Long::sum);
    }
  }
}
