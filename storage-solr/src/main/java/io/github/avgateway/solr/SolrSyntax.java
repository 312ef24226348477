package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Query fragments built without string escaping pitfalls. */
final class SolrSyntax {

  private SolrSyntax() {}

  /** Matches documents whose {@code field} is exactly {@code value} (no query parsing of it). */
  static String term(String field, String value) {
    return "{!term f=" + field + "}" + value;
  }

  /** Matches {@code field} in the half-open range {@code [from, to)}. */
  static String range(String field, TimeRange range) {
    return field + ":[" + date(range.from()) + " TO " + date(range.to()) + "}";
  }

  /** Matches {@code field} at exactly {@code instant} (to the millisecond). */
  static String at(String field, Instant instant) {
    return field + ":\"" + date(instant) + "\"";
  }

  /** Matches {@code field} before {@code to} (exclusive). */
  static String before(String field, Instant to) {
    return field + ":[* TO " + date(to) + "}";
  }

  /** An instant in Solr's date syntax, at the millisecond precision Solr stores. */
  static String date(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MILLIS).toString();
  }
}
