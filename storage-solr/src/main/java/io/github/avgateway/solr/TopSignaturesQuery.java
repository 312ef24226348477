package io.github.avgateway.solr;

import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.TermsFacetMap;
import org.apache.solr.client.solrj.response.QueryResponse;

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
    Map<String, Long> counts = coverage.coveredTotal().signatures();
    if (!coverage.live().isEmpty()) {
      countLive(coverage.live()).forEach((name, n) -> counts.merge(name, n, Long::sum));
    }
    return counts.entrySet().stream()
        .map(e -> new SignatureCount(e.getKey(), e.getValue()))
        .sorted(MOST_FIRST)
        .limit(limit)
        .toList();
  }

  private Map<String, Long> countLive(List<TimeRange> live) {
    JsonQueryRequest request =
        new JsonQueryRequest()
            .setQuery(RollupCoverage.anyOf(live))
            .withFilter(DocumentSearch.DOCUMENTS_ONLY)
            .setLimit(0)
            .withFacet("signatures", new TermsFacetMap(HistoryFields.SIGNATURES).setLimit(-1));
    QueryResponse response = SolrHistoryQueries.call(() -> request.process(client, collection));
    return SolrRollups.buckets(response, "signatures");
  }
}
