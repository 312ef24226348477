package io.github.avgateway.core.history;

import io.github.avgateway.core.model.MessageInfo;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gathers the history documents of several consumer batches into one history message
 * (docs/history-stream.md): fewer, larger messages cost the broker less per document. A batch
 * submits its documents and gets a future of the outcome of the message that carried them; it is
 * acknowledged only once that outcome says the broker holds the message, so buffering never moves
 * an acknowledgement ahead of its history.
 *
 * <p>When a message goes out: at once while none is on its way (a lone batch waits for nothing);
 * while one is, the documents that arrive meanwhile wait for its outcome and go together in the
 * next (group commit), unless they reach {@code maxDocuments} or the oldest of them has waited
 * {@code maxWait}: then they go without waiting for the one on its way. A message holds whole
 * batches and at most {@code maxDocuments} documents, unless one batch alone holds more. One thread
 * of its own sends; the sink's futures complete on whatever thread the broker answers on.
 */
public final class HistoryBuffer<R> implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HistoryBuffer.class);

  private record Part<R>(List<MessageInfo> documents, CompletableFuture<R> outcome, long since) {}

  private final HistoryStream<R> sink;
  private final Function<Throwable, R> failed;
  private final int maxDocuments;
  private final long maxWaitNanos;
  private final ArrayDeque<Part<R>> pending = new ArrayDeque<>();
  private final Thread sender;
  private int pendingDocuments;
  private int inFlight;
  private boolean closed;

  /**
   * @param failed the outcome of a message the sink threw on or failed, or that was never sent
   *     because the buffer closed
   */
  public HistoryBuffer(
      String name,
      HistoryStream<R> sink,
      Function<Throwable, R> failed,
      int maxDocuments,
      Duration maxWait) {
    this.sink = sink;
    this.failed = failed;
    this.maxDocuments = maxDocuments;
    this.maxWaitNanos = maxWait.toNanos();
    this.sender = Thread.ofPlatform().name(name).daemon().start(this::run);
  }

  /** Hands {@code documents} (one batch's) to the next history message. */
  public CompletableFuture<R> submit(List<MessageInfo> documents) {
    CompletableFuture<R> outcome = new CompletableFuture<>();
    synchronized (this) {
      if (!closed) {
        pending.addLast(new Part<>(List.copyOf(documents), outcome, System.nanoTime()));
        pendingDocuments += documents.size();
        notifyAll();
        return outcome;
      }
    }
    outcome.complete(failed.apply(new IllegalStateException("the history buffer is closed")));
    return outcome;
  }

  /** History messages sent and not yet answered. */
  public synchronized int inFlight() {
    return inFlight;
  }

  /**
   * Sends what is still buffered, then stops the sender: call it once no batch submits any more
   * (the consumers stopped). Waits up to {@code limit} for the sender to finish.
   */
  public void close(Duration limit) {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    try {
      sender.join(limit);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Part<R>> left;
    synchronized (this) {
      left = new ArrayList<>(pending);
      pending.clear();
    }
    left.forEach(
        part -> part.outcome().complete(failed.apply(new IllegalStateException("closed"))));
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(5));
  }

  private void run() {
    try {
      for (List<Part<R>> parts = next(); parts != null; parts = next()) {
        send(parts);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The parts of the next message, once one is due; null once closed and empty. */
  private synchronized List<Part<R>> next() throws InterruptedException {
    while (true) {
      if (pending.isEmpty()) {
        if (closed) {
          return null;
        }
        wait();
        continue;
      }
      long waited = System.nanoTime() - pending.peekFirst().since();
      if (closed || inFlight == 0 || pendingDocuments >= maxDocuments || waited >= maxWaitNanos) {
        return take();
      }
      wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(maxWaitNanos - waited)));
    }
  }

  /** Whole parts from the head, up to {@code maxDocuments} documents (at least one part). */
  private List<Part<R>> take() {
    List<Part<R>> parts = new ArrayList<>();
    int documents = 0;
    while (!pending.isEmpty()
        && (parts.isEmpty()
            || documents + pending.peekFirst().documents().size() <= maxDocuments)) {
      Part<R> part = pending.pollFirst();
      parts.add(part);
      documents += part.documents().size();
    }
    pendingDocuments -= documents;
    inFlight++;
    return parts;
  }

  private void send(List<Part<R>> parts) {
    List<MessageInfo> documents = new ArrayList<>();
    parts.forEach(part -> documents.addAll(part.documents()));
    CompletableFuture<R> sent;
    try {
      sent = sink.send(documents);
    } catch (RuntimeException e) {
      log.debug("a history message of {} documents could not be sent", documents.size(), e);
      sent = CompletableFuture.completedFuture(failed.apply(e));
    }
    sent.whenComplete(
        (outcome, error) -> answered(parts, error == null ? outcome : failed.apply(error)));
  }

  private void answered(List<Part<R>> parts, R outcome) {
    synchronized (this) {
      inFlight--;
      notifyAll();
    }
    parts.forEach(part -> part.outcome().complete(outcome));
  }
}
