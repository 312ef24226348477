package io.github.avgateway.load.history;

import io.github.avgateway.core.port.HistoryRecorder;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Fills the history through the project's own writer: each document is made by {@link ScaleData},
 * turned into a Solr document by the store's mapper and sent in batches by its recorder, exactly as
 * the indexer records. Producer threads stand in for the indexer's consumers; at most {@code
 * window} documents are unsettled at once, so memory stays flat at any size. Prints progress
 * (documents, docs/s, ETA) every {@code progressEvery} documents.
 */
final class ScaleFill {

  private static final int WINDOW = 20_000;
  private final HistoryRecorder recorder;
  private final ScaleData data;
  private final PrintStream out;

  ScaleFill(HistoryRecorder recorder, ScaleData data, PrintStream out) {
    this.recorder = recorder;
    this.data = data;
    this.out = out;
  }

  /**
   * Records documents {@code from} (inclusive) to {@code to} (exclusive) of the pass that starts at
   * global index {@code first} and holds {@code passSize} documents; returns when Solr accepted all
   * of them.
   *
   * @param done called with the number of the pass' documents accepted so far, in order, about
   *     every {@code progressEvery} documents (for the resumable state)
   */
  void fill(
      long first,
      long passSize,
      long from,
      long to,
      int threads,
      long progressEvery,
      java.util.function.LongConsumer done)
      throws Exception {
    Semaphore window = new Semaphore(WINDOW);
    AtomicLong next = new AtomicLong(from);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Progress progress = new Progress(from, to, out);
    ExecutorService producers = Executors.newFixedThreadPool(threads);
    List<Future<?>> running = new ArrayList<>();
    // Settled documents in order: the lowest index not yet accepted bounds what may be resumed.
    Watermark watermark = new Watermark(from, to);
    for (int t = 0; t < threads; t++) {
      running.add(
          producers.submit(() -> {
            for (long j = next.getAndIncrement(); j < to; j = next.getAndIncrement()) {
              if (failure.get() != null) {
                return null;
              }
              window.acquire();
              long index = j;
              CompletableFuture<Void> accepted =
                  recorder.record(data.document(first, passSize, index));
              accepted.whenComplete((ok, error) -> {
                window.release();
                if (error != null) {
                  failure.compareAndSet(null, error);
                  return;
                }
                long settled = watermark.settle(index);
                if (settled >= 0 && progress.tick(settled, progressEvery)) {
                  done.accept(settled);
                }
              });
            }
            return null;
          }));
    }
    for (Future<?> f : running) {
      f.get();
    }
    producers.shutdown();
    window.acquire(WINDOW);
    if (failure.get() != null) {
      throw new IllegalStateException("Solr refused documents", failure.get());
    }
    done.accept(to);
    progress.finish();
  }

  /** The count of documents settled without a gap, from a bit set of the settled ones. */
  private static final class Watermark {
    private final long from;
    private final java.util.BitSet settled;
    private long low;

    Watermark(long from, long to) {
      this.from = from;
      this.settled = new java.util.BitSet((int) Math.min(Integer.MAX_VALUE, to - from));
      this.low = from;
    }

    /** Marks {@code index} settled; returns the new low mark when it moved, else -1. */
    synchronized long settle(long index) {
      settled.set((int) (index - from));
      long before = low;
      while (low - from < Integer.MAX_VALUE && settled.get((int) (low - from))) {
        low++;
      }
      return low == before ? -1 : low;
    }
  }

  /** Prints documents, docs/s (overall and recent) and the ETA. */
  private static final class Progress {
    private final long from;
    private final long to;
    private final PrintStream out;
    private final long started = System.nanoTime();
    private long lastPrinted;
    private long lastNanos = System.nanoTime();
    private long lastCount;

    Progress(long from, long to, PrintStream out) {
      this.from = from;
      this.to = to;
      this.out = out;
      this.lastPrinted = from;
      this.lastCount = from;
    }

    synchronized boolean tick(long settled, long every) {
      if (settled - lastPrinted < every) {
        return false;
      }
      long now = System.nanoTime();
      double recent = (settled - lastCount) / ((now - lastNanos) / 1e9);
      double overall = (settled - from) / ((now - started) / 1e9);
      long etaSeconds = overall > 0 ? (long) ((to - settled) / overall) : -1;
      out.printf(
          "[fill] %,d documents of %,d; %,.0f docs/s (last %,d: %,.0f docs/s); ETA %d min %02d s%n",
          settled, to, overall, settled - lastCount, recent, etaSeconds / 60, etaSeconds % 60);
      lastPrinted = settled;
      lastCount = settled;
      lastNanos = now;
      return true;
    }

    void finish() {
      double seconds = (System.nanoTime() - started) / 1e9;
      out.printf(
          "[fill] %,d documents in %.1f s: %,.0f docs/s%n",
          to - from, seconds, (to - from) / seconds);
    }
  }
}
