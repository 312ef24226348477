package io.github.avgateway.amqp.testing;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryRecorder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A history store for tests: keeps documents by id (a second record with the same id replaces the
 * first, like the real store) and every record call in order; can be told to refuse some.
 */
public final class InMemoryHistory implements HistoryRecorder {

  private final Map<String, MessageInfo> documents = new ConcurrentHashMap<>();
  private final List<MessageInfo> calls = new CopyOnWriteArrayList<>();
  private volatile Predicate<MessageInfo> refuse = info -> false;

  @Override
  public CompletableFuture<Void> record(MessageInfo info) {
    calls.add(info);
    if (refuse.test(info)) {
      return CompletableFuture.failedFuture(new IllegalStateException("refused by the test"));
    }
    documents.put(info.id(), info);
    return CompletableFuture.completedFuture(null);
  }

  /** The document of {@code requestId} of the given transport, if recorded. */
  public Optional<MessageInfo> find(String transport, String requestId) {
    return Optional.ofNullable(documents.get(MessageInfo.idFor(transport, requestId)));
  }

  public Map<String, MessageInfo> documents() {
    return Map.copyOf(documents);
  }

  /** Every record call, accepted or refused, in order. */
  public List<MessageInfo> calls() {
    return List.copyOf(calls);
  }

  /** Refuses (fails the future of) every document matching {@code rule} from now on. */
  public void refuseWhen(Predicate<MessageInfo> rule) {
    this.refuse = rule;
  }
}
