package io.github.avgateway.jms.support;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractDeadLetter;
import io.github.avgateway.core.contract.ContractReply;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Replies and dead-letters a driver received, by correlation id. */
public final class Inbox {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final Map<String, List<ContractReply>> replies = new ConcurrentHashMap<>();
  private final Map<String, List<ContractDeadLetter>> deadLetters = new ConcurrentHashMap<>();

  public void reply(ContractReply reply) {
    replies
        .computeIfAbsent(key(reply.correlationId()), k -> new CopyOnWriteArrayList<>())
        .add(reply);
  }

  public void deadLetter(ContractDeadLetter letter) {
    deadLetters
        .computeIfAbsent(key(letter.correlationId()), k -> new CopyOnWriteArrayList<>())
        .add(letter);
  }

  public List<ContractReply> replies(String correlationId) {
    return List.copyOf(replies.getOrDefault(correlationId, List.of()));
  }

  public List<ContractDeadLetter> deadLetters(String correlationId) {
    return List.copyOf(deadLetters.getOrDefault(correlationId, List.of()));
  }

  public int replyCount() {
    return replies.values().stream().mapToInt(List::size).sum();
  }

  public ContractReply awaitReply(String correlationId) {
    await().atMost(TIMEOUT).pollDelay(Duration.ZERO).until(() -> !replies(correlationId).isEmpty());
    return replies(correlationId).get(0);
  }

  public ContractDeadLetter awaitDeadLetter(String correlationId) {
    await()
        .atMost(TIMEOUT)
        .pollDelay(Duration.ZERO)
        .until(() -> !deadLetters(correlationId).isEmpty());
    return deadLetters(correlationId).get(0);
  }

  private static String key(String correlationId) {
    return correlationId == null ? "" : correlationId;
  }
}
