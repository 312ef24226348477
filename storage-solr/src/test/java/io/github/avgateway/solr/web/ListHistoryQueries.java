package io.github.avgateway.solr.web;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryOrder;
import io.github.avgateway.core.port.HistoryPage;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * {@link HistoryQueries} over a list, for tests of the HTTP layer: the port's semantics (newest
 * first, half-open ranges, zero hours included) without a store; cursors are offsets, and a cursor
 * that is not a number is rejected with an {@link IllegalArgumentException}. Can be told to fail
 * every query, as a store that does not answer.
 */
final class ListHistoryQueries implements HistoryQueries {

  private static final Comparator<MessageInfo> NEWEST_FIRST =
      Comparator.comparing(MessageInfo::receivedAt).thenComparing(MessageInfo::id).reversed();

  private final List<MessageInfo> documents = new CopyOnWriteArrayList<>();
  private volatile RuntimeException failure;

  void add(MessageInfo... docs) {
    documents.addAll(List.of(docs));
  }

  void clear() {
    documents.clear();
    failure = null;
  }

  void failWith(RuntimeException e) {
    failure = e;
  }

  private Stream<MessageInfo> all() {
    RuntimeException e = failure;
    if (e != null) {
      throw e;
    }
    return documents.stream();
  }

  @Override
  public Optional<MessageInfo> byRequestId(String transport, String requestId) {
    return all().filter(d -> d.id().equals(MessageInfo.idFor(transport, requestId))).findFirst();
  }

  @Override
  public List<MessageInfo> bySha256(String sha256, int limit) {
    return all().filter(d -> sha256.equals(d.sha256())).sorted(NEWEST_FIRST).limit(limit).toList();
  }

  @Override
  public List<MessageInfo> byCorrelationId(String correlationId, int limit) {
    return all()
        .filter(d -> correlationId.equals(d.correlationId()))
        .sorted(NEWEST_FIRST)
        .limit(limit)
        .toList();
  }

  @Override
  public List<MessageInfo> byTraceId(String traceId, int limit) {
    return all()
        .filter(d -> traceId.equals(d.traceId()))
        .sorted(NEWEST_FIRST)
        .limit(limit)
        .toList();
  }

  @Override
  public List<MessageInfo> recent(TimeRange range, int limit, HistoryOrder order) {
    return all()
        .filter(d -> range.contains(d.receivedAt()))
        .sorted(order == HistoryOrder.NEWEST_FIRST ? NEWEST_FIRST : NEWEST_FIRST.reversed())
        .limit(limit)
        .toList();
  }

  @Override
  public HistoryPage byVerdict(
      Verdict verdict, TimeRange range, HistoryCursor cursor, int pageSize) {
    List<MessageInfo> matching =
        all()
            .filter(d -> d.verdict() == verdict && range.contains(d.receivedAt()))
            .sorted(NEWEST_FIRST)
            .toList();
    int start = cursor.equals(HistoryCursor.first()) ? 0 : Integer.parseInt(cursor.token());
    int end = Math.min(matching.size(), start + pageSize);
    return new HistoryPage(
        matching.subList(start, end),
        new HistoryCursor(Integer.toString(end)),
        end >= matching.size());
  }

  @Override
  public List<SignatureCount> topSignatures(TimeRange range, int limit) {
    Map<String, Long> counts = new TreeMap<>();
    all()
        .filter(d -> range.contains(d.receivedAt()))
        .flatMap(d -> d.signatures().stream())
        .forEach(s -> counts.merge(s, 1L, Long::sum));
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(limit)
        .map(e -> new SignatureCount(e.getKey(), e.getValue()))
        .toList();
  }

  @Override
  public List<HourlyVerdictCounts> verdictsPerHour(TimeRange range) {
    List<MessageInfo> inRange = all().filter(d -> range.contains(d.receivedAt())).toList();
    List<HourlyVerdictCounts> hours = new ArrayList<>();
    for (Instant hour = range.from().truncatedTo(ChronoUnit.HOURS);
        hour.isBefore(range.to());
        hour = hour.plus(1, ChronoUnit.HOURS)) {
      Instant start = hour;
      Map<Verdict, Long> counts = new EnumMap<>(Verdict.class);
      inRange.stream()
          .filter(d ->
              !d.receivedAt().isBefore(start) && d.receivedAt().isBefore(start.plusSeconds(3600)))
          .forEach(d -> counts.merge(d.verdict(), 1L, Long::sum));
      hours.add(new HourlyVerdictCounts(start, counts));
    }
    return hours;
  }
}
