package io.github.avgateway.solr;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryOrder;
import io.github.avgateway.core.port.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;

/**
 * Searches history documents (never the per-slot counts) in the order of receipt, so that the cost
 * of a page does not grow with the index:
 *
 * <ul>
 *   <li>every filter is {@code cache=false}: run as a lazy iterator next to the others instead of a
 *       bit set over the whole index, which Solr would rebuild after each soft commit;
 *   <li>{@code minExactCount} is the page size: Solr may stop counting matches, and Lucene skips
 *       whole blocks of documents that cannot make the page, using the points of {@code
 *       receivedAt};
 *   <li>the range is searched in windows from its near end, each four times as long as the one
 *       before (a minute, then four, …): a range query builds the set of its matches before the
 *       first is sorted, so a page costs about what the window that fills it holds, not what the
 *       whole range holds;
 *   <li>ties on {@code receivedAt} are broken by {@code _version_} (docValues Solr keeps anyway),
 *       so the id needs no docValues; a page after a cursor is the rest of the cursor's millisecond
 *       followed by the earlier (or later) milliseconds, two plain range queries.
 * </ul>
 */
final class DocumentSearch {

  /** Excludes the per-slot count documents, which have a kind; history documents have none. */
  static final String DOCUMENTS_ONLY = "{!cache=false}-" + HistoryFields.KIND + ":[* TO *]";

  private static final String FIELDS = "*," + HistoryFields.VERSION;
  private static final Duration FIRST_WINDOW = Duration.ofMinutes(1);
  private static final Duration[] KEY_WINDOWS = {Duration.ofDays(1)};

  private final Function<SolrQuery, QueryResponse> solr;

  /**
   * @param solr runs one query against the history collection
   */
  DocumentSearch(Function<SolrQuery, QueryResponse> solr) {
    this.solr = solr;
  }

  /** A filter query that Solr applies lazily, uncached. */
  static String filter(String query) {
    if (query.startsWith("{!cache=false")) {
      return query;
    }
    if (query.startsWith("{!")) {
      int end = query.indexOf('}');
      return query.substring(0, end) + " cache=false" + query.substring(end);
    }
    return "{!cache=false}" + query;
  }

  /**
   * Up to {@code limit} documents matching {@code filters} in {@code range}, from {@code after}
   * (exclusive; null for the start) in {@code order}.
   */
  List<SolrDocument> page(
      List<String> filters, TimeRange range, Position after, HistoryOrder order, int limit) {
    List<SolrDocument> found = new ArrayList<>(limit);
    if (after != null && range.contains(after.receivedAt())) {
      String sameMilli = SolrSyntax.at(HistoryFields.RECEIVED_AT, after.receivedAt());
      SolrQuery query = query(sameMilli, filters, limit, order);
      query.addFilterQuery(filter(versionBeyond(after.version(), order)));
      found.addAll(solr.apply(query).getResults());
    }
    TimeRange rest = beyond(range, after, order);
    Duration window = FIRST_WINDOW;
    while (found.size() < limit && rest != EMPTY) {
      TimeRange part = nearest(rest, window, order);
      String partQuery = SolrSyntax.range(HistoryFields.RECEIVED_AT, part);
      found.addAll(solr.apply(query(partQuery, filters, limit - found.size(), order)).getResults());
      rest = remainder(rest, part, order);
      window = window.multipliedBy(4);
    }
    return found;
  }

  /**
   * Up to {@code limit} documents, newest first, among those matching the query {@code key} that
   * also pass {@code exact}: the key narrows the search, the check removes the documents whose key
   * only collides. Searches the last day first, then everything older ({@link #KEY_WINDOWS}), so
   * that a file scanned millions of times costs what its last day holds, not all its scans sorted;
   * a rare file costs two requests (more windows cost a request each: measured slower).
   */
  List<MessageInfo> byKey(String key, Predicate<MessageInfo> exact, int limit, Instant now) {
    List<MessageInfo> found = new ArrayList<>(limit);
    String upper = "*]";
    for (int w = 0; w <= KEY_WINDOWS.length && found.size() < limit; w++) {
      String lower = w < KEY_WINDOWS.length ? SolrSyntax.date(now.minus(KEY_WINDOWS[w])) : "*";
      String window = HistoryFields.RECEIVED_AT + ":[" + lower + " TO " + upper;
      found.addAll(keyed(key, window, exact, limit - found.size()));
      upper = lower + "}";
    }
    return found;
  }

  /** Up to {@code limit} of the {@code key}'s documents in {@code window} passing {@code exact}. */
  private List<MessageInfo> keyed(
      String key, String window, Predicate<MessageInfo> exact, int limit) {
    int rows = limit + 16;
    while (true) {
      SolrQuery query = query(key, List.of(window), rows, HistoryOrder.NEWEST_FIRST);
      SolrDocumentList results = solr.apply(query).getResults();
      List<MessageInfo> matching =
          results.stream().map(SolrDocumentMapper::fromDocument).filter(exact).toList();
      if (matching.size() >= limit || results.size() < rows) {
        return matching.subList(0, Math.min(limit, matching.size()));
      }
      rows *= 4;
    }
  }

  private static SolrQuery query(String main, List<String> filters, int rows, HistoryOrder order) {
    SolrQuery query = new SolrQuery(main);
    filters.forEach(f -> query.addFilterQuery(filter(f)));
    query.addFilterQuery(DOCUMENTS_ONLY);
    String direction = order == HistoryOrder.NEWEST_FIRST ? " desc" : " asc";
    query.set(
        "sort", HistoryFields.RECEIVED_AT + direction + "," + HistoryFields.VERSION + direction);
    query.setRows(rows);
    query.set("minExactCount", rows);
    query.setFields(FIELDS);
    return query;
  }

  private static String versionBeyond(long version, HistoryOrder order) {
    return order == HistoryOrder.NEWEST_FIRST
        ? HistoryFields.VERSION + ":[* TO " + version + "}"
        : HistoryFields.VERSION + ":{" + version + " TO *]";
  }

  /** The first {@code window} of {@code range} in {@code order}, or all of it when shorter. */
  private static TimeRange nearest(TimeRange range, Duration window, HistoryOrder order) {
    if (Duration.between(range.from(), range.to()).compareTo(window) <= 0) {
      return range;
    }
    return order == HistoryOrder.NEWEST_FIRST
        ? new TimeRange(range.to().minus(window), range.to())
        : new TimeRange(range.from(), range.from().plus(window));
  }

  /** What is left of {@code range} after its first part {@code part} in {@code order}. */
  private static TimeRange remainder(TimeRange range, TimeRange part, HistoryOrder order) {
    if (part.equals(range)) {
      return EMPTY;
    }
    return order == HistoryOrder.NEWEST_FIRST
        ? new TimeRange(range.from(), part.from())
        : new TimeRange(part.to(), range.to());
  }

  /** The part of {@code range} strictly beyond the cursor's millisecond in {@code order}. */
  private static TimeRange beyond(TimeRange range, Position after, HistoryOrder order) {
    if (after == null) {
      return range;
    }
    if (order == HistoryOrder.NEWEST_FIRST) {
      Instant to = after.receivedAt().isBefore(range.to()) ? after.receivedAt() : range.to();
      return to.isAfter(range.from()) ? new TimeRange(range.from(), to) : EMPTY;
    }
    Instant from = after.receivedAt().plusMillis(1);
    from = from.isAfter(range.from()) ? from : range.from();
    return from.isBefore(range.to()) ? new TimeRange(from, range.to()) : EMPTY;
  }

  /** A range no document is in (before the epoch's first millisecond). */
  private static final TimeRange EMPTY =
      new TimeRange(Instant.EPOCH.minusMillis(2), Instant.EPOCH.minusMillis(1));

  /**
   * Where a page ended: the last document's receipt time and {@code _version_}.
   *
   * @param receivedAt the last document's receivedAt
   * @param version the last document's _version_
   */
  record Position(Instant receivedAt, long version) {

    private static final char SEPARATOR = '_';

    /** The position of a document returned by {@link #page}. */
    static Position of(SolrDocument doc) {
      Date received = (Date) doc.getFirstValue(HistoryFields.RECEIVED_AT);
      long version = ((Number) doc.getFirstValue(HistoryFields.VERSION)).longValue();
      return new Position(received.toInstant(), version);
    }

    /** The cursor token: receipt millis and version, both in base 36. */
    String token() {
      return Long.toString(receivedAt.toEpochMilli(), 36) + SEPARATOR + Long.toString(version, 36);
    }

    /**
     * The position in {@code token}.
     *
     * @throws IllegalArgumentException when {@code token} is not one {@link #token()} made
     */
    static Position parse(String token) {
      int dot = token.indexOf(SEPARATOR);
      if (dot < 1 || dot == token.length() - 1) {
        throw new IllegalArgumentException("not a history cursor: " + token);
      }
      try {
        long millis = Long.parseLong(token, 0, dot, 36);
        long version = Long.parseLong(token, dot + 1, token.length(), 36);
        return new Position(Instant.ofEpochMilli(millis), version);
      } catch (NumberFormatException | java.time.DateTimeException e) {
        throw new IllegalArgumentException("not a history cursor: " + token, e);
      }
    }
  }
}
