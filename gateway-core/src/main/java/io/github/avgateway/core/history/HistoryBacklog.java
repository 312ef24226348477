package io.github.avgateway.core.history;

/** How many history messages wait in the broker for an indexer; implemented per transport. */
@FunctionalInterface
public interface HistoryBacklog {

  /** Messages on the history queue, delivered-but-unacknowledged included; -1 when unknown. */
  long messages();
}
