package io.github.avgateway.core.history;

import java.util.Locale;

/**
 * The history backlog as operators read it: the broker's count of history messages and, since each
 * holds a batch of documents, about how many documents that is (the mean size of the history
 * messages this process sent, or else of those its indexer took).
 *
 * @param backlog the broker's count, or null when the front-end cannot count it
 * @param sent the scan path's gate (its messages' sizes), or null in an indexer-only process
 * @param indexer this process's indexer, or null when it does not index
 */
public record BacklogSize(HistoryBacklog backlog, HistoryBacklogGate sent, IndexerStatus indexer) {

  /** History messages waiting; -1 when unknown. */
  public long messages() {
    return backlog == null ? -1 : backlog.messages();
  }

  /** About how many documents wait; -1 when unknown. */
  public long documents() {
    return documents(messages());
  }

  /** For health: "backlog 812 history messages, about 12,345 documents", or "" when unknown. */
  public String words() {
    long messages = messages();
    if (messages < 0) {
      return "";
    }
    long documents = documents(messages);
    return documents < 0
        ? String.format(Locale.ROOT, "backlog %,d history messages", messages)
        : String.format(
            Locale.ROOT, "backlog about %,d documents (%,d history messages)", documents, messages);
  }

  private long documents(long messages) {
    long estimate = sent == null ? -1 : sent.sizes().documentsIn(messages);
    if (estimate < 0 && indexer != null) {
      estimate = indexer.sizes().documentsIn(messages);
    }
    return estimate;
  }
}
