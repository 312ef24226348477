package io.github.avgateway.solr;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryOrder;
import io.github.avgateway.core.port.HistoryPage;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.common.SolrDocument;

/**
 * {@link HistoryQueries} on SolrJ. Lookups by request id use real-time get (in each collection of a
 * time-routed alias in turn), so they see a document as soon as Solr accepted it; all other queries
 * see documents once they are visible (after the recorder's {@code commitWithin}). Every query
 * fails within its timeout when Solr does not answer, whatever the client's own request timeout.
 * Failures surface as {@link SolrHistoryException}.
 */
public final class SolrHistoryQueries implements HistoryQueries {

  /** The query timeout unless one is given. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /** One virtual thread per query: idle, it holds no thread. */
  private static final ExecutorService QUERY_THREADS =
      Executors.newThreadPerTaskExecutor(
          Thread.ofVirtual().name("solr-history-query-", 0).factory());

  private final SolrClient client;
  private final HistoryCollections collections;
  private final String collection;
  private final Duration timeout;
  private final DocumentSearch search;
  private final CountQueries counts;

  public SolrHistoryQueries(SolrClient client, String collection) {
    this(client, collection, DEFAULT_TIMEOUT);
  }

  /**
   * @param timeout longest a query waits for Solr's answer before it fails
   */
  public SolrHistoryQueries(SolrClient client, String collection, Duration timeout) {
    this(client, collection, timeout, RollupSlots.DEFAULT);
  }

  /**
   * @param timeout longest a query waits for Solr's answer before it fails
   * @param slots the slot length of the per-slot counts (avgateway.solr.rollup.slot)
   */
  public SolrHistoryQueries(
      SolrClient client, String collection, Duration timeout, RollupSlots slots) {
    this(client, HistoryCollections.single(collection), timeout, slots);
  }

  /**
   * Queries over {@code collections} (a single collection, or a time-routed alias: {@link
   * SolrHistoryStore#collections()}); searches go through its name, lookups by request id to each
   * member in turn ({@link StoredCopies}).
   *
   * @param timeout longest a query waits for Solr's answer before it fails
   * @param slots the slot length of the per-slot counts (avgateway.solr.rollup.slot)
   */
  public SolrHistoryQueries(
      SolrClient client, HistoryCollections collections, Duration timeout, RollupSlots slots) {
    this.counts = new CountQueries(client, collections.name(), slots);
    this.client = client;
    this.collections = collections;
    this.collection = collections.name();
    this.timeout = timeout;
    this.search = new DocumentSearch(query -> call(() -> client.query(collection, query)));
  }

  @Override
  public Optional<MessageInfo> byRequestId(String transport, String requestId) {
    String id = MessageInfo.idFor(transport, requestId);
    SolrDocument doc = ask(() -> StoredCopies.newest(client, collections, id));
    return Optional.ofNullable(doc).map(SolrDocumentMapper::fromDocument);
  }

  @Override
  public List<MessageInfo> bySha256(String sha256, int limit) {
    return byKey(
        HistoryFields.SHA256_KEY,
        HistoryKeys.sha256(sha256),
        d -> sha256.equals(d.sha256()),
        limit);
  }

  @Override
  public List<MessageInfo> byCorrelationId(String correlationId, int limit) {
    return byKey(
        HistoryFields.CORRELATION_KEY,
        HistoryKeys.correlationId(correlationId),
        d -> correlationId.equals(d.correlationId()),
        limit);
  }

  @Override
  public List<MessageInfo> byTraceId(String traceId, int limit) {
    return byKey(
        HistoryFields.TRACE_KEY,
        HistoryKeys.traceId(traceId),
        d -> traceId.equals(d.traceId()),
        limit);
  }

  /** The newest documents whose {@code field} holds {@code key} and that pass {@code exact}. */
  private List<MessageInfo> byKey(String field, int key, Predicate<MessageInfo> exact, int limit) {
    positive(limit);
    String query = field + ":\"" + key + "\"";
    return bounded(() -> search.byKey(query, exact, limit, Instant.now()));
  }

  @Override
  public List<MessageInfo> recent(TimeRange range, int limit, HistoryOrder order) {
    positive(limit);
    return bounded(() -> documents(search.page(List.of(), range, null, order, limit)));
  }

  @Override
  public HistoryPage byVerdict(
      Verdict verdict, TimeRange range, HistoryCursor cursor, int pageSize) {
    positive(pageSize);
    DocumentSearch.Position after =
        cursor.equals(HistoryCursor.first()) ? null : DocumentSearch.Position.parse(cursor.token());
    List<String> filters = List.of(SolrSyntax.term(HistoryFields.VERDICT, verdict.name()));
    List<SolrDocument> found =
        bounded(() -> search.page(filters, range, after, HistoryOrder.NEWEST_FIRST, pageSize));
    boolean last = found.size() < pageSize;
    HistoryCursor next =
        found.isEmpty()
            ? cursor
            : new HistoryCursor(DocumentSearch.Position.of(found.getLast()).token());
    return new HistoryPage(documents(found), next, last);
  }

  @Override
  public List<SignatureCount> topSignatures(TimeRange range, int limit) {
    positive(limit);
    return bounded(() -> counts.topSignatures(range, limit));
  }

  @Override
  public List<HourlyVerdictCounts> verdictsPerHour(TimeRange range) {
    return bounded(() -> counts.verdictsPerHour(range));
  }

  private static List<MessageInfo> documents(List<SolrDocument> found) {
    return found.stream().map(SolrDocumentMapper::fromDocument).toList();
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
