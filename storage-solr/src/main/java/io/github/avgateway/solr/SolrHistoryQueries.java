package io.github.avgateway.solr;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryPage;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import java.util.List;
import java.util.Optional;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.TermsFacetMap;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.response.json.BucketBasedJsonFacet;
import org.apache.solr.client.solrj.response.json.NestableJsonFacet;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.CursorMarkParams;

/**
 * {@link HistoryQueries} on SolrJ. Lookups by request id use real-time get, so they see a document
 * as soon as Solr accepted it; all other queries see documents once they are visible (after the
 * recorder's {@code commitWithin}). Failures surface as {@link SolrHistoryException}.
 */
public final class SolrHistoryQueries implements HistoryQueries {

  private static final String NEWEST_FIRST =
      HistoryFields.RECEIVED_AT + " desc," + HistoryFields.ID + " desc";

  private final SolrClient client;
  private final String collection;

  public SolrHistoryQueries(SolrClient client, String collection) {
    this.client = client;
    this.collection = collection;
  }

  @Override
  public Optional<MessageInfo> byRequestId(String transport, String requestId) {
    String id = MessageInfo.idFor(transport, requestId);
    SolrDocument doc = call(() -> client.getById(collection, id));
    return Optional.ofNullable(doc).map(SolrDocumentMapper::fromDocument);
  }

  @Override
  public List<MessageInfo> bySha256(String sha256, int limit) {
    SolrQuery query = new SolrQuery("*:*");
    query.addFilterQuery(SolrSyntax.term(HistoryFields.SHA256, sha256));
    query.set("sort", NEWEST_FIRST);
    query.setRows(positive(limit));
    return documents(call(() -> client.query(collection, query)));
  }

  @Override
  public HistoryPage byVerdict(
      Verdict verdict, TimeRange range, HistoryCursor cursor, int pageSize) {
    SolrQuery query = new SolrQuery("*:*");
    query.addFilterQuery(SolrSyntax.term(HistoryFields.VERDICT, verdict.name()));
    query.addFilterQuery(SolrSyntax.range(HistoryFields.RECEIVED_AT, range));
    query.set("sort", NEWEST_FIRST);
    query.setRows(positive(pageSize));
    query.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor.token());
    QueryResponse response = page(query, cursor);
    List<MessageInfo> documents = documents(response);
    String next = response.getNextCursorMark();
    boolean last = documents.size() < pageSize || next.equals(cursor.token());
    return new HistoryPage(documents, new HistoryCursor(next), last);
  }

  /** Solr answers 400 to a cursor mark it never issued: the caller's mistake, not an outage. */
  private QueryResponse page(SolrQuery query, HistoryCursor cursor) {
    try {
      return call(() -> client.query(collection, query));
    } catch (SolrHistoryException e) {
      if (!cursor.equals(HistoryCursor.first())
          && e.getCause() instanceof SolrException rejected
          && rejected.code() == SolrException.ErrorCode.BAD_REQUEST.code) {
        throw new IllegalArgumentException("not a cursor of this query: " + cursor.token(), e);
      }
      throw e;
    }
  }

  @Override
  public List<SignatureCount> topSignatures(TimeRange range, int limit) {
    JsonQueryRequest request =
        new JsonQueryRequest()
            .setQuery("*:*")
            .withFilter(SolrSyntax.range(HistoryFields.RECEIVED_AT, range))
            .setLimit(0)
            .withFacet(
                "signatures",
                new TermsFacetMap(HistoryFields.SIGNATURES).setLimit(positive(limit)));
    QueryResponse response = call(() -> request.process(client, collection));
    NestableJsonFacet facets = response.getJsonFacetingResponse();
    BucketBasedJsonFacet facet = facets == null ? null : facets.getBucketBasedFacets("signatures");
    if (facet == null) {
      return List.of();
    }
    return facet.getBuckets().stream()
        .map(b -> new SignatureCount(b.getVal().toString(), b.getCount()))
        .toList();
  }

  @Override
  public List<HourlyVerdictCounts> verdictsPerHour(TimeRange range) {
    return new HourlyVerdictQuery(client, collection).run(range);
  }

  private static List<MessageInfo> documents(QueryResponse response) {
    return response.getResults().stream().map(SolrDocumentMapper::fromDocument).toList();
  }

  private static int positive(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("must be 1 or more: " + n);
    }
    return n;
  }

  /** A Solr call that may fail. */
  @FunctionalInterface
  interface SolrCall<T> {
    T run() throws Exception;
  }

  static <T> T call(SolrCall<T> call) {
    try {
      return call.run();
    } catch (Exception e) {
      throw new SolrHistoryException("history query failed: " + BatchWriter.describe(e), e);
    }
  }
}
