package io.github.avgateway.core.history;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a history indexer reports for health and metrics: whether it is indexing or degraded (the
 * store refuses, with the reason), how many documents it indexed, and the age of the oldest
 * document it holds un-indexed (its lag). Shared by a process's indexer consumers; thread-safe.
 */
public final class IndexerStatus {

  private final Clock clock;
  private final AtomicLong indexed = new AtomicLong();
  private final DocumentsPerMessage sizes = new DocumentsPerMessage();
  private volatile Availability indexing = Availability.up();
  private volatile Instant oldestPending;

  public IndexerStatus(Clock clock) {
    this.clock = clock;
  }

  /** UP while the store accepts; Down with the store's reason while the indexer backs off. */
  public Availability indexing() {
    return indexing;
  }

  /** Documents the store accepted since start. */
  public long documentsIndexed() {
    return indexed.get();
  }

  /** Age of the oldest document taken from the stream and not yet accepted; zero when none. */
  public Duration lag() {
    Instant oldest = oldestPending;
    return oldest == null ? Duration.ZERO : Duration.between(oldest, clock.instant());
  }

  /** The documents per history message this indexer took from the stream. */
  public DocumentsPerMessage sizes() {
    return sizes;
  }

  void holding(List<MessageInfo> documents) {
    documents.stream()
        .map(MessageInfo::receivedAt)
        .min(Instant::compareTo)
        .ifPresent(t -> oldestPending = t);
  }

  void indexed(int documents) {
    indexed.addAndGet(documents);
    oldestPending = null;
    indexing = Availability.up();
  }

  void refused(String why) {
    indexing = Availability.down("history store unreachable: " + why);
  }
}
