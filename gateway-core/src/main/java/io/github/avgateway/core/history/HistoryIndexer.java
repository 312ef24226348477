package io.github.avgateway.core.history;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.HistoryRecorder;
import io.github.avgateway.core.port.HistoryStoreGate;
import io.github.avgateway.core.wire.HistoryMessage;
import io.github.avgateway.core.wire.HistoryMessages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transport-neutral half of the history indexer: takes the bodies of the history messages a
 * transport consumer received, hands all their documents to the store at once (so the store's
 * batched writer sends thousands per update when a backlog exists), and says per message whether it
 * may be acknowledged. Guarantees: {@link IndexOutcome.Indexed} only after the store accepted every
 * document of that message, or a later version of it from the same poll; an unreadable body is
 * {@link IndexOutcome.Rejected} and never retried; everything else is {@link IndexOutcome.Refused},
 * to be left in the broker. Writing a document again overwrites it (ids derive from the request),
 * so a redelivered message never doubles a document. A document that cannot have been written
 * before (its request and its history message delivered for the first time, the first attempt, its
 * id once in the poll) is recorded as new ({@link HistoryRecorder#recordNew}), which spares the
 * store the search for a copy to replace. Not thread-safe: one per consumer.
 */
public final class HistoryIndexer {

  private static final Logger log = LoggerFactory.getLogger(HistoryIndexer.class);

  private final HistoryRecorder store;
  private final HistoryStoreGate storeGate;
  private final Duration acceptTimeout;
  private final IndexerStatus status;

  /**
   * @param store the history store (Solr)
   * @param storeGate whether the store takes writes now (down while it refuses or its retention is
   *     behind); while it is down nothing is sent to the store and every poll is refused
   * @param acceptTimeout how long to wait for the store to accept one poll's documents
   * @param status where health and metrics read what the indexer does
   */
  public HistoryIndexer(
      HistoryRecorder store,
      HistoryStoreGate storeGate,
      Duration acceptTimeout,
      IndexerStatus status) {
    this.store = store;
    this.storeGate = storeGate;
    this.acceptTimeout = acceptTimeout;
    this.status = status;
  }

  /**
   * The body of a history message as a transport consumer received it.
   *
   * @param body the message body
   * @param redelivered whether the broker may have delivered it before (AMQP's redelivered flag,
   *     JMS's {@code JMSRedelivered}): then its documents may be stored already
   */
  public record Received(byte[] body, boolean redelivered) {

    /** {@code body}, of which the broker cannot say that it is delivered for the first time. */
    public static Received again(byte[] body) {
      return new Received(body, true);
    }
  }

  /** A pause between attempts; false when the consumer is stopping and should give up. */
  @FunctionalInterface
  public interface Pause {
    boolean pause(Duration duration);
  }

  /**
   * Indexes {@code bodies} and holds on to them while the store refuses: tries again after each
   * {@code backoff} wait until the store accepts or {@code pause} says the consumer is stopping.
   * Logs once when the store starts refusing (no stack trace) and once when it accepts again. The
   * outcomes are final (no {@link IndexOutcome.Refused}) unless the consumer is stopping.
   */
  public List<IndexOutcome> indexHeld(List<Received> received, Backoff backoff, Pause pause) {
    List<IndexOutcome> outcomes = index(received, true);
    int attempts = 1;
    while (outcomes.stream().anyMatch(IndexOutcome.Refused.class::isInstance)) {
      String why =
          outcomes.stream()
              .filter(IndexOutcome.Refused.class::isInstance)
              .map(o -> ((IndexOutcome.Refused) o).why())
              .findFirst()
              .orElseThrow();
      if (attempts == 1) {
        log.warn("history store refuses; indexing paused, retrying with back-off: {}", why);
      }
      status.refused(why);
      if (!pause.pause(backoff.failed())) {
        return outcomes;
      }
      outcomes = index(received, false);
      attempts++;
    }
    if (attempts > 1) {
      log.info("history store accepts again; indexing resumed after {} attempts", attempts);
    }
    backoff.succeeded();
    return outcomes;
  }

  /**
   * Indexes the documents of {@code bodies}, each of which may have been delivered before; one
   * outcome per body, in the same order.
   */
  public List<IndexOutcome> index(List<byte[]> bodies) {
    return index(bodies.stream().map(Received::again).toList(), false);
  }

  /**
   * One attempt at {@code received}; on the first attempt documents that cannot be stored yet are
   * recorded as new.
   */
  private List<IndexOutcome> index(List<Received> received, boolean firstAttempt) {
    List<IndexOutcome> outcomes = new ArrayList<>(received.size());
    List<CompletableFuture<Void>> pending = new ArrayList<>();
    List<Integer> readable = new ArrayList<>();
    List<MessageInfo> documents = new ArrayList<>();
    Set<MessageInfo> fresh = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Received one : received) {
      try {
        HistoryMessage message = HistoryMessages.decode(one.body());
        readable.add(outcomes.size());
        outcomes.add(new IndexOutcome.Indexed(message.documents().size()));
        status.sizes().saw(message.documents().size());
        documents.addAll(message.documents());
        if (firstAttempt && !one.redelivered()) {
          message.documents().stream().filter(doc -> !doc.redelivered()).forEach(fresh::add);
        }
      } catch (HistoryMessages.Unreadable e) {
        outcomes.add(new IndexOutcome.Rejected(e.reason(), e.getMessage()));
      }
    }
    status.holding(documents);
    String refused;
    if (storeGate.accepting() instanceof Availability.Down down) {
      refused = down.why();
    } else {
      Set<String> repeated = new HashSet<>();
      for (MessageInfo doc : latestById(documents, repeated)) {
        pending.add(record(doc, fresh.contains(doc) && !repeated.contains(doc.id())));
      }
      refused = awaitAccepted(pending);
    }
    if (refused != null) {
      IndexOutcome failed = new IndexOutcome.Refused(refused);
      readable.forEach(i -> outcomes.set(i, failed));
    } else {
      status.indexed(documents.size());
    }
    return outcomes;
  }

  /**
   * One document per id, the one that came last in the stream: a request delivered again (its first
   * history message requeued ahead of the second) has two versions in one poll, and the store's
   * concurrent writers would not keep their order. The ids met more than once go into {@code
   * repeated}.
   */
  private static Collection<MessageInfo> latestById(
      List<MessageInfo> documents, Set<String> repeated) {
    Map<String, MessageInfo> latest = new LinkedHashMap<>();
    for (MessageInfo doc : documents) {
      if (latest.put(doc.id(), doc) != null) {
        repeated.add(doc.id());
      }
    }
    return latest.values();
  }

  private CompletableFuture<Void> record(MessageInfo doc, boolean isNew) {
    try {
      return isNew ? store.recordNew(doc) : store.record(doc);
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
