package io.github.avgateway.core.port;

/**
 * Whether the history store takes documents now: down while it refuses or fails writes, or while it
 * must not grow (its retention is behind). Only the history indexer consults it, holding its
 * messages in the broker meanwhile; it never gates scanning (Solr is not on the scan path,
 * docs/history-stream.md).
 */
@FunctionalInterface
public interface HistoryStoreGate {

  /** For a process whose store has no such signal: always accepting. */
  HistoryStoreGate ALWAYS_ACCEPTING = Availability::up;

  /** The current state; cheap enough to call before every indexer poll. */
  Availability accepting();
}
