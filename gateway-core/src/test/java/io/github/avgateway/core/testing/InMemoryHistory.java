package io.github.avgateway.core.testing;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryRecorder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A history store for front-end tests: keeps documents by id (a second record with the same id
 * replaces the first, like the real store), remembers every record call in order, and can be told
 * to refuse documents (their future fails, as when Solr refuses a write). A document recorded as
 * new while one with its id is kept is counted as a second copy ({@link #copies()}): the real store
 * would keep both.
 */
public final class InMemoryHistory implements HistoryRecorder {

  private final Map<String, MessageInfo> documents = new ConcurrentHashMap<>();
  private final List<MessageInfo> calls = new CopyOnWriteArrayList<>();
  private final AtomicInteger refused = new AtomicInteger();
  private final List<MessageInfo> newCalls = new CopyOnWriteArrayList<>();
  private final AtomicInteger copies = new AtomicInteger();
  private volatile Predicate<MessageInfo> refuse = info -> false;

  @Override
  public CompletableFuture<Void> record(MessageInfo info) {
    calls.add(info);
    if (refuse.test(info)) {
      refused.incrementAndGet();
      return CompletableFuture.failedFuture(new IllegalStateException("refused by the test"));
    }
    documents.put(info.id(), info);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> recordNew(MessageInfo info) {
    newCalls.add(info);
    boolean stored = documents.containsKey(info.id());
    CompletableFuture<Void> accepted = record(info);
    if (stored && !accepted.isCompletedExceptionally()) {
      copies.incrementAndGet();
    }
    return accepted;
  }

  /** The record calls that said the document was new, in order. */
  public List<MessageInfo> newCalls() {
    return List.copyOf(newCalls);
  }

  /** How many documents were recorded as new although one with their id was kept. */
  public int copies() {
    return copies.get();
  }

  /** The document of {@code requestId} received over {@code transport}, if accepted. */
  public Optional<MessageInfo> find(String transport, String requestId) {
    return Optional.ofNullable(documents.get(MessageInfo.idFor(transport, requestId)));
  }

  /** The accepted documents by id. */
  public Map<String, MessageInfo> documents() {
    return Map.copyOf(documents);
  }

  /** How many documents are kept. */
  public int size() {
    return documents.size();
  }

  /** Every record call, accepted or refused, in order. */
  public List<MessageInfo> calls() {
    return List.copyOf(calls);
  }

  /** How many record calls were refused. */
  public int refused() {
    return refused.get();
  }

  /** From now on, documents that match {@code rule} are refused. */
  public void refuseWhen(Predicate<MessageInfo> rule) {
    refuse = rule;
  }

  /** Accepts every document again. */
  public void acceptAll() {
    refuse = info -> false;
  }
}
