package io.github.avgateway.core.fault;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one checker of every fault scenario, on every transport (issue 8), in the style of Jepsen's
 * queue checker: the client records what it sent and what the broker confirmed, the scenario feeds
 * in every reply, dead-letter and history document it observed, and {@link #report()} counts what
 * went wrong. Thread-safe: senders, reply listeners and history pollers may call it concurrently.
 *
 * <p>Requests are tracked by a <em>key</em> the client chooses and sends as the request's
 * correlation id (AMQP {@code correlation_id}, {@code JMSCorrelationID}); replies and dead-letters
 * carry it back, and history documents are matched by their {@code correlationId} (else their
 * {@code requestId}). Use a key unique to the run, e.g. {@code fault-<scenario>-<run>-<n>}.
 *
 * <p>Usage: {@link #sent} before publishing, {@link #confirmed} when the broker confirmed it (JMS:
 * the send or commit returned), {@link #reply} / {@link #deadLetter} for every message seen on the
 * reply and dead-letter destinations, {@link #history} for every history document found (query by
 * {@link #keys()}), poll {@link #unanswered()} until it is 0, then {@code
 * report().print().assertHolds(...)}.
 */
public final class FaultLedger {

  private final String scenario;
  private final long startNanos = System.nanoTime();
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final Map<String, List<MessageInfo>> strayDocs = new ConcurrentHashMap<>();
  private final AtomicInteger strayOutcomes = new AtomicInteger();
  private final AtomicInteger seenAgain = new AtomicInteger();

  /**
   * @param scenario the name printed with the counts, e.g. {@code amqp/rabbitmq-kill-9}
   */
  public FaultLedger(String scenario) {
    this.scenario = Objects.requireNonNull(scenario, "scenario");
  }

  /** The scenario's name. */
  public String scenario() {
    return scenario;
  }

  /** Records that the request {@code key} is about to be sent, and what it must get. */
  public void sent(String key, Expected expected) {
    if (entries.putIfAbsent(key, new Entry(key, expected)) != null) {
      throw new IllegalArgumentException("key sent twice: " + key);
    }
  }

  /** Records that the broker confirmed the request {@code key} (it is now the broker's). */
  public void confirmed(String key) {
    entry(key).confirmed = true;
  }

  /**
   * Prints the body of an ERROR reply to {@code key} beside the run's FAULT lines: its detail says
   * which failure it was, and the ledger keeps only the verdict and reason.
   */
  public void printErrorReply(String key, String body) {
    System.out.printf(
        "FAULT %s: %s answered ERROR: %s%n",
        scenario, key, body.length() > 600 ? body.substring(0, 600) + "..." : body);
  }

  /** Records a reply seen for {@code key} (its correlation id). */
  public void reply(String key, Verdict verdict, Reason reason) {
    observe(key, new Outcome.Reply(verdict, reason));
  }

  /**
   * Records a dead-letter seen for {@code key}; {@code reason} null for the broker's own.
   *
   * @param verdict the verdict it carried, or null
   */
  public void deadLetter(String key, DeadLetterReason reason, Verdict verdict, Reason why) {
    observe(key, new Outcome.DeadLetter(reason, verdict, why));
  }

  /** Records a reply or dead-letter seen for {@code key}. */
  public void observe(String key, Outcome outcome) {
    Entry entry = key == null ? null : entries.get(key);
    if (entry == null) {
      strayOutcomes.incrementAndGet();
    } else {
      entry.answeredAt.compareAndSet(0, System.nanoTime());
      entry.outcomes.add(outcome);
    }
  }

  /**
   * Records a reply or dead-letter that the caller's queue delivered again (AMQP's {@code
   * redelivered} flag): a broker killed after delivering it, before the caller's acknowledgement
   * reached its disk, hands the same message out once more. If the same outcome is recorded for
   * {@code key} already, this is that answer seen again, not a second answer of the gateway, and it
   * is only counted ({@link FaultReport#seenAgain()}); otherwise (the caller dropped the first
   * delivery unread) it is recorded as {@link #observe} would. A second answer of the gateway is a
   * new message, delivered first without the flag, so it is still counted as a duplicate.
   */
  public void observeAgain(String key, Outcome outcome) {
    Entry entry = key == null ? null : entries.get(key);
    if (entry != null && entry.outcomes.contains(outcome)) {
      seenAgain.incrementAndGet();
    } else {
      observe(key, outcome);
    }
  }

  /** Records a history document found in the store (the same document may be passed again). */
  public void history(MessageInfo doc) {
    String key = doc.correlationId() != null ? doc.correlationId() : doc.requestId();
    Entry entry = entries.get(key);
    if (entry == null) {
      strayDocs.computeIfAbsent(doc.id(), id -> new CopyOnWriteArrayList<>()).add(doc);
    } else {
      entry.docs.put(doc.id(), doc);
    }
  }

  /** Every history document recorded for a key of this ledger so far. */
  public List<MessageInfo> documents() {
    return entries.values().stream().flatMap(e -> e.docs.values().stream()).toList();
  }

  /** Every key sent so far. */
  public List<String> keys() {
    return List.copyOf(entries.keySet());
  }

  /** Keys whose request has an outcome that calls for a history document but none was seen. */
  public List<String> keysWithoutHistory() {
    return entries.entrySet().stream()
        .filter(e -> e.getValue().needsHistory() && e.getValue().docs.isEmpty())
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Confirmed requests with neither reply nor dead-letter yet: poll until 0 (bounded). */
  public long unanswered() {
    return entries.values().stream().filter(e -> e.confirmed && e.outcomes.isEmpty()).count();
  }

  /** Confirmed requests with neither reply nor dead-letter yet, for a run that timed out. */
  public List<String> unansweredKeys() {
    return entries.values().stream()
        .filter(e -> e.confirmed && e.outcomes.isEmpty())
        .map(e -> e.key)
        .sorted()
        .toList();
  }

  /** Requests (confirmed or not) with at least one outcome. */
  public long answered() {
    return entries.values().stream().filter(e -> !e.outcomes.isEmpty()).count();
  }

  /**
   * When each answered request got its first answer ({@link System#nanoTime()}), in order: what a
   * scenario's answer rate is measured from ({@link RateRecovery}).
   */
  public long[] answerTimes() {
    return entries.values().stream()
        .mapToLong(e -> e.answeredAt.get())
        .filter(t -> t != 0)
        .sorted()
        .toArray();
  }

  /**
   * For the requests sent before {@code nanos} ({@link System#nanoTime()}) and not answered by
   * then, when each got its first answer (0: not yet): the requests a fault at that moment caught
   * in flight.
   */
  public long[] inFlightAt(long nanos) {
    return entries.values().stream()
        .filter(e -> e.sentAt < nanos)
        .mapToLong(e -> e.answeredAt.get())
        .filter(t -> t == 0 || t >= nanos)
        .toArray();
  }

  /**
   * The first few requests answered more than once without a redelivery in their history, each with
   * what came and what history says (for the report of a failed run).
   */
  public List<String> unexplainedRepeats() {
    return FaultChecks.unexplainedRepeats(List.copyOf(entries.values()));
  }

  /**
   * The counts of everything recorded so far; prints the first few repeats no redelivery explains,
   * if there are any, so that a failed run names them.
   */
  public FaultReport report() {
    unexplainedRepeats()
        .forEach(repeat -> System.out.println("  repeat, no redelivery in history: " + repeat));
    return FaultChecks.report(
        scenario,
        Duration.ofNanos(System.nanoTime() - startNanos),
        List.copyOf(entries.values()),
        strayOutcomes.get(),
        strayDocs.size(),
        seenAgain.get());
  }

  private Entry entry(String key) {
    Entry entry = entries.get(key);
    if (entry == null) {
      throw new IllegalArgumentException("unknown key: " + key);
    }
    return entry;
  }

  /** What the ledger knows of one request. */
  static final class Entry {
    final String key;
    final Expected expected;
    final long sentAt = System.nanoTime();
    volatile boolean confirmed;
    final List<Outcome> outcomes = new CopyOnWriteArrayList<>();
    final AtomicLong answeredAt = new AtomicLong();
    final Map<String, MessageInfo> docs = new ConcurrentHashMap<>();

    Entry(String key, Expected expected) {
      this.key = key;
      this.expected = Objects.requireNonNull(expected, "expected");
    }

    /** Answered by the gateway itself (not only by the broker's own dead-lettering). */
    boolean needsHistory() {
      return outcomes.stream()
          .anyMatch(
              o -> !(o instanceof Outcome.DeadLetter dead) || dead.deadLetterReason() != null);
    }
  }
}
