package io.github.avgateway.core.contract;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Collects what a {@link TransportDriver} receives, by correlation id, for the contract suite. */
final class ContractInbox {

  private static final String NO_CORRELATION = "";

  private final Map<String, List<ContractReply>> replies = new ConcurrentHashMap<>();
  private final Map<String, List<ContractDeadLetter>> deadLetters = new ConcurrentHashMap<>();

  void reply(ContractReply reply) {
    add(replies, reply.correlationId(), reply);
  }

  void deadLetter(ContractDeadLetter deadLetter) {
    add(deadLetters, deadLetter.correlationId(), deadLetter);
  }

  /** Every reply received so far with this correlation id. */
  List<ContractReply> replies(String correlationId) {
    return List.copyOf(replies.getOrDefault(correlationId, List.of()));
  }

  /** Every dead-letter received so far with this correlation id. */
  List<ContractDeadLetter> deadLetters(String correlationId) {
    return List.copyOf(deadLetters.getOrDefault(correlationId, List.of()));
  }

  /** The first reply with this correlation id, waiting at most {@code timeout} for it. */
  ContractReply awaitReply(String correlationId, Duration timeout) {
    await("a reply with correlation id " + correlationId)
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> !replies(correlationId).isEmpty());
    return replies(correlationId).get(0);
  }

  /** The first dead-letter with this correlation id, waiting at most {@code timeout} for it. */
  ContractDeadLetter awaitDeadLetter(String correlationId, Duration timeout) {
    await("a dead-letter with correlation id " + correlationId)
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> !deadLetters(correlationId).isEmpty());
    return deadLetters(correlationId).get(0);
  }

  /** How many of {@code correlationIds} have at least one reply. */
  long answered(List<String> correlationIds) {
    return correlationIds.stream().filter(replies::containsKey).count();
  }

  private static <T> void add(Map<String, List<T>> byId, String correlationId, T item) {
    String key = correlationId == null ? NO_CORRELATION : correlationId;
    byId.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(item);
  }
}
