package io.github.avgateway.solr.web;

import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryOrder;
import io.github.avgateway.core.port.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Checks and defaults of the history API's parameters. Every check that fails throws {@link
 * HistoryApiException#badParameter}, so the caller gets a 400 naming the parameter; nothing out of
 * range reaches the store.
 */
final class HistoryParams {

  /** Time range used when a request gives neither end: the last day. */
  static final Duration DEFAULT_SPAN = Duration.ofDays(1);

  /** Longest range of the hourly counts (one bucket per hour). */
  static final Duration MAX_HOURLY_SPAN = Duration.ofDays(31);

  static final int MAX_ID_LENGTH = 1024;

  private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
  private static final Pattern TRACE_ID = Pattern.compile("[0-9a-fA-F]{32}|[0-9a-fA-F]{16}");
  private static final Pattern TRANSPORT = Pattern.compile("[a-z0-9][a-z0-9._-]{0,31}");
  private static final Pattern CURSOR = Pattern.compile("[A-Za-z0-9+/=*_-]{1,1024}");

  private HistoryParams() {}

  /**
   * {@code [from, to)}: {@code to} defaults to now, {@code from} to {@link #DEFAULT_SPAN} before
   * {@code to}; {@code from} must be before {@code to}.
   */
  static TimeRange range(Instant from, Instant to, Instant now) {
    Instant end = to != null ? to : now;
    Instant start = from != null ? from : end.minus(DEFAULT_SPAN);
    if (!start.isBefore(end)) {
      throw HistoryApiException.badParameter("from", "must be before to (" + end + ")");
    }
    return new TimeRange(start, end);
  }

  /** As {@link #range}, and at most {@link #MAX_HOURLY_SPAN} long. */
  static TimeRange hourlyRange(Instant from, Instant to, Instant now) {
    TimeRange range = range(from, to, now);
    if (Duration.between(range.from(), range.to()).compareTo(MAX_HOURLY_SPAN) > 0) {
      throw HistoryApiException.badParameter(
          "from", "the range may span at most " + MAX_HOURLY_SPAN.toDays() + " days");
    }
    return range;
  }

  /** {@code value} when it lies in {@code [1, max]}. */
  static int limit(String name, int value, int max) {
    if (value < 1 || value > max) {
      throw HistoryApiException.badParameter(name, "must be from 1 to " + max + ", was " + value);
    }
    return value;
  }

  /** A SHA-256 in hex, returned in lower case as the store keeps it. */
  static String sha256(String value) {
    if (!SHA256.matcher(value).matches()) {
      throw HistoryApiException.badParameter("sha256", "must be 64 hexadecimal digits");
    }
    return value.toLowerCase(Locale.ROOT);
  }

  /** A request id: not blank, at most {@link #MAX_ID_LENGTH} characters. */
  static String requestId(String value) {
    if (value.isBlank() || value.length() > MAX_ID_LENGTH) {
      throw HistoryApiException.badParameter(
          "requestId", "must be 1 to " + MAX_ID_LENGTH + " characters, not blank");
    }
    return value;
  }

  /** A correlation id: not empty, at most {@link #MAX_ID_LENGTH} characters. */
  static String correlationId(String value) {
    if (value.isEmpty() || value.length() > MAX_ID_LENGTH) {
      throw HistoryApiException.badParameter(
          "correlationId", "must be 1 to " + MAX_ID_LENGTH + " characters");
    }
    return value;
  }

  /**
   * A trace id: 32 hexadecimal digits (16 for a 64-bit trace id), returned in lower case as tracers
   * write it.
   */
  static String traceId(String value) {
    if (!TRACE_ID.matcher(value).matches()) {
      throw HistoryApiException.badParameter("traceId", "must be 32 (or 16) hexadecimal digits");
    }
    return value.toLowerCase(Locale.ROOT);
  }

  /** {@code newest-first} or {@code oldest-first}. */
  static HistoryOrder order(String value) {
    return switch (value) {
      case "newest-first" -> HistoryOrder.NEWEST_FIRST;
      case "oldest-first" -> HistoryOrder.OLDEST_FIRST;
      default ->
          throw HistoryApiException.badParameter("order", "must be newest-first or oldest-first");
    };
  }

  /** A transport name as front-ends record it ({@code jms}, {@code amqp}, …). */
  static String transport(String value) {
    if (!TRANSPORT.matcher(value).matches()) {
      throw HistoryApiException.badParameter(
          "transport", "must be a transport name such as jms or amqp");
    }
    return value;
  }

  /** The cursor of a previous page, or the first page's when absent. */
  static HistoryCursor cursor(String value) {
    if (value == null) {
      return HistoryCursor.first();
    }
    if (!CURSOR.matcher(value).matches()) {
      throw HistoryApiException.badParameter("cursor", "must be a cursor returned as next");
    }
    return new HistoryCursor(value);
  }
}
