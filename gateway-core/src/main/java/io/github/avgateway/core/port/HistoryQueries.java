package io.github.avgateway.core.port;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import java.util.List;
import java.util.Optional;

/**
 * Reads the history store. A document accepted by {@link HistoryRecorder} is found by {@link
 * #byRequestId} at once; the other queries see it after the store's visibility delay (about a
 * second). Times are the request's {@link MessageInfo#receivedAt()}. Implementations throw an
 * unchecked exception when the store cannot answer; they never return partial results silently.
 */
public interface HistoryQueries {

  /** The document of one request on one transport, if it is recorded (accepted). */
  Optional<MessageInfo> byRequestId(String transport, String requestId);

  /**
   * The newest documents about one file content, newest first.
   *
   * @param sha256 lower-case hex SHA-256 of the payload
   * @param limit at most this many documents (1 or more)
   */
  List<MessageInfo> bySha256(String sha256, int limit);

  /**
   * The newest documents of requests that carried {@code correlationId}, newest first.
   *
   * @param correlationId the correlation id exactly as the caller set it
   * @param limit at most this many documents (1 or more)
   */
  List<MessageInfo> byCorrelationId(String correlationId, int limit);

  /**
   * The newest documents of requests handled in the trace {@code traceId}, newest first.
   *
   * @param traceId the W3C trace id, lower-case hex, as the history records it
   * @param limit at most this many documents (1 or more)
   */
  List<MessageInfo> byTraceId(String traceId, int limit);

  /**
   * The first {@code limit} documents of any verdict received in {@code range}, in {@code order}
   * (ties broken the same way on every call).
   */
  List<MessageInfo> recent(TimeRange range, int limit, HistoryOrder order);

  /**
   * One page of the documents with {@code verdict} received in {@code range}, newest first. Paging
   * with {@link HistoryPage#next()} is stable while documents are added: no document is returned
   * twice and none that existed at the first page is skipped.
   *
   * @param cursor {@link HistoryCursor#first()} for the first page, then the previous page's {@link
   *     HistoryPage#next()}
   * @param pageSize documents per page (1 or more)
   * @throws IllegalArgumentException if the store sees that {@code cursor} is not one it issued
   */
  HistoryPage byVerdict(Verdict verdict, TimeRange range, HistoryCursor cursor, int pageSize);

  /** The most frequent signatures of documents received in {@code range}, most frequent first. */
  List<SignatureCount> topSignatures(TimeRange range, int limit);

  /**
   * Document counts per verdict for every hour that starts in {@code range} (hours in UTC, the
   * first one starting at {@code range.from()} truncated to the hour), oldest hour first. Hours
   * without documents are included with zero counts.
   */
  List<HourlyVerdictCounts> verdictsPerHour(TimeRange range);
}
