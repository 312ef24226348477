package io.github.avgateway.core.port;

/** The order of a history listing by the time a request was received. */
public enum HistoryOrder {
  /** The most recently received first. */
  NEWEST_FIRST,
  /** The earliest received first. */
  OLDEST_FIRST
}
