package io.github.avgateway.jms.support;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryRecorder;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** History in a map, keyed by document id; can be told to refuse documents. */
public final class InMemoryHistory implements HistoryRecorder {

  private final Map<String, MessageInfo> documents = new ConcurrentHashMap<>();
  private volatile Predicate<MessageInfo> refuse = info -> false;
  private final AtomicInteger refused = new AtomicInteger();

  @Override
  public CompletableFuture<Void> record(MessageInfo info) {
    if (refuse.test(info)) {
      refused.incrementAndGet();
      return CompletableFuture.failedFuture(new IllegalStateException("history told to refuse"));
    }
    documents.put(info.id(), info);
    return CompletableFuture.completedFuture(null);
  }

  /** From now on, documents that match {@code predicate} are refused (their future fails). */
  public void refuseWhen(Predicate<MessageInfo> predicate) {
    refuse = predicate;
  }

  /** Accepts every document again. */
  public void acceptAll() {
    refuse = info -> false;
  }

  public int refused() {
    return refused.get();
  }

  public Optional<MessageInfo> byRequestId(String transport, String requestId) {
    return Optional.ofNullable(documents.get(MessageInfo.idFor(transport, requestId)));
  }

  public int size() {
    return documents.size();
  }
}
