package io.github.avgateway.core.port;

import java.util.Objects;

/**
 * Where a paged history query goes on. Opaque: only {@link #first()} and cursors returned by the
 * store are meaningful, and a cursor is valid for the query that produced it only.
 *
 * @param token the store's position marker
 */
public record HistoryCursor(String token) {

  private static final HistoryCursor FIRST = new HistoryCursor("*");

  public HistoryCursor {
    Objects.requireNonNull(token, "token");
  }

  /** The cursor of the first page. */
  public static HistoryCursor first() {
    return FIRST;
  }
}
