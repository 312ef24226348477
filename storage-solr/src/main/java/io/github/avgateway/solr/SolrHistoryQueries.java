package io.github.avgateway.solr;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryPage;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
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
 * recorder's {@code commitWithin}). Every query fails within its timeout when Solr does not answer,
 * whatever the client's own request timeout. Failures surface as {@link SolrHistoryException}.
 */
public final class SolrHistoryQueries implements HistoryQueries {

  /** The query timeout unless one is given. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  private static final String NEWEST_FIRST =
      HistoryFields.RECEIVED_AT + " desc," + HistoryFields.ID + " desc";

  /** One virtual thread per query: idle, it holds no thread. */
  private static final ExecutorService QUERY_THREADS =
      Executors.newThreadPerTaskExecutor(
          Thread.ofVirtual().name("solr-history-query-", 0).factory());

  private final SolrClient client;
  private final String collection;
  private final Duration timeout;

  public SolrHistoryQueries(SolrClient client, String collection) {
    this(client, collection, DEFAULT_TIMEOUT);
  }

  /**
   * @param timeout longest a query waits for Solr's answer before it fails
   */
  public SolrHistoryQueries(SolrClient client, String collection, Duration timeout) {
    this.client = client;
    this.collection = collection;
    this.timeout = timeout;
  }

  @Override
  public Optional<MessageInfo> byRequestId(String transport, String requestId) {
    String id = MessageInfo.idFor(transport, requestId);
    SolrDocument doc = ask(() -> client.getById(collection, id));
    return Optional.ofNullable(doc).map(SolrDocumentMapper::fromDocument);
  }

  @Override
  public List<MessageInfo> bySha256(String sha256, int limit) {
    SolrQuery query = new SolrQuery("*:*");
    query.addFilterQuery(SolrSyntax.term(HistoryFields.SHA256, sha256));
    query.set("sort", NEWEST_FIRST);
    query.setRows(positive(limit));
    return documents(ask(() -> client.query(collection, query)));
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
      return ask(() -> client.query(collection, query));
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
    QueryResponse response = ask(() -> request.process(client, collection));
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
    return bounded(() -> new HourlyVerdictQuery(client, collection).run(range));
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

  /** One Solr request of a query, within the query timeout. */
  private <T> T ask(SolrCall<T> request) {
    return bounded(() -> call(request));
  }

  /**
   * Runs {@code query} on a thread of its own and waits at most {@link #timeout} for it, so that a
   * Solr that takes connections but never answers (or an embedded one still opening) fails a query
   * within the query timeout rather than after the client's request timeout, which is sized for the
   * writer's large batches. A query that timed out is interrupted and left to end by itself.
   */
  private <T> T bounded(Supplier<T> query) {
    Future<T> answer = QUERY_THREADS.submit(query::get);
    try {
      return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new SolrHistoryException(
          "history query failed: Solr did not answer within " + timeout, e);
    } catch (ExecutionException e) {
      throw unchecked(e.getCause());
    } catch (InterruptedException e) {
      answer.cancel(true);
      Thread.currentThread().interrupt();
      throw new SolrHistoryException("interrupted while waiting for a history query", e);
    }
  }

  private static RuntimeException unchecked(Throwable failure) {
    if (failure instanceof RuntimeException e) {
      return e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return new SolrHistoryException(
        "history query failed: " + BatchWriter.describe(failure), failure);
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
