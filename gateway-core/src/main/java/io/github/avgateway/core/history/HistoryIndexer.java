package io.github.avgateway.core.history;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.wire.HistoryMessage;
import io.github.avgateway.core.wire.HistoryMessages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The transport-neutral half of the history indexer: takes the bodies of the history messages a
 * transport consumer received, hands all their documents to the store at once (so the store's
 * batched writer sends thousands per update when a backlog exists), and says per message whether it
 * may be acknowledged. Guarantees: {@link IndexOutcome.Indexed} only after the store accepted every
 * document of that message; an unreadable body is {@link IndexOutcome.Rejected} and never retried;
 * everything else is {@link IndexOutcome.Refused}, to be left in the broker. Writing a document
 * again overwrites it (ids derive from the request), so a redelivered message never doubles a
 * document. Not thread-safe: one per consumer.
 */
public final class HistoryIndexer {

  private final HistoryRecorder store;
  private final Duration acceptTimeout;

  /**
   * @param store the history store (Solr)
   * @param acceptTimeout how long to wait for the store to accept one poll's documents
   */
  public HistoryIndexer(HistoryRecorder store, Duration acceptTimeout) {
    this.store = store;
    this.acceptTimeout = acceptTimeout;
  }

  /** Indexes the documents of {@code bodies}; one outcome per body, in the same order. */
  public List<IndexOutcome> index(List<byte[]> bodies) {
    List<IndexOutcome> outcomes = new ArrayList<>(bodies.size());
    List<CompletableFuture<Void>> pending = new ArrayList<>();
    List<Integer> readable = new ArrayList<>();
    for (byte[] body : bodies) {
      try {
        HistoryMessage message = HistoryMessages.decode(body);
        readable.add(outcomes.size());
        outcomes.add(new IndexOutcome.Indexed(message.documents().size()));
        message.documents().forEach(doc -> pending.add(record(doc)));
      } catch (HistoryMessages.Unreadable e) {
        outcomes.add(new IndexOutcome.Rejected(e.reason(), e.getMessage()));
      }
    }
    String refused = awaitAccepted(pending);
    if (refused != null) {
      IndexOutcome failed = new IndexOutcome.Refused(refused);
      readable.forEach(i -> outcomes.set(i, failed));
    }
    return outcomes;
  }

  private CompletableFuture<Void> record(MessageInfo doc) {
    try {
      return store.record(doc);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Null when every document was accepted, else why not. */
  private String awaitAccepted(List<CompletableFuture<Void>> pending) {
    try {
      CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
          .get(acceptTimeout.toMillis(), TimeUnit.MILLISECONDS);
      return null;
    } catch (ExecutionException e) {
      return String.valueOf(e.getCause());
    } catch (TimeoutException e) {
      return "the history store did not accept "
          + pending.size()
          + " documents within "
          + acceptTimeout;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
