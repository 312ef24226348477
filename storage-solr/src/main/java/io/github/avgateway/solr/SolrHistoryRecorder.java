package io.github.avgateway.solr;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.port.HistoryRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link HistoryRecorder} on SolrJ with smart batching.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>A future completes normally only after Solr answered OK to the update request holding its
 *       document (accepted into the update log; visible after {@code commitWithin}). Any other
 *       outcome fails it with {@link SolrHistoryException}; nothing is reported accepted that Solr
 *       did not accept.
 *   <li>Every future is settled within about twice the request timeout of {@code record} returning:
 *       a document queued longer than the timeout is failed unsent, and a sent one waits at most
 *       the client's request timeout.
 *   <li>One update request per batch, never a commit. A batch takes what is queued, up to the batch
 *       size, waiting at most {@code maxDelay} for more: under light load a batch is one document,
 *       under heavy load batches fill while earlier requests are in flight.
 *   <li>Back-pressure: the queue is bounded and {@link #record} blocks while it is full. While
 *       writes fail, {@link SolrHistoryGate} is down, so the history indexer stops sending before
 *       the queue fills; an idle recorder probes Solr every {@code probeInterval} and the gate
 *       comes back up by itself.
 *   <li>Idempotent: the document id is {@link MessageInfo#id()}, so recording a redelivered request
 *       again overwrites its document. A document recorded as new ({@link #recordNew}) is added
 *       without that overwrite; the documents of redelivered requests are looked up again after one
 *       and after ten minutes, and a second copy (the two written in the other order, by two
 *       indexers) is deleted ({@link SecondCopies}).
 * </ul>
 */
public final class SolrHistoryRecorder implements HistoryRecorder, AutoCloseable {

  /** How often the documents of redelivered requests due for a check are looked up again. */
  static final Duration COPIES_CHECK_INTERVAL = Duration.ofSeconds(30);

  private static final Logger log = LoggerFactory.getLogger(SolrHistoryRecorder.class);

  private final RecorderSettings settings;
  private final BatchWriter writer;
  private final BlockingQueue<PendingRecord> queue;
  private final Semaphore inFlight;
  private final ExecutorService senders;
  private final Thread dispatcher;
  private final ScheduledRuns copiesCheck;
  private volatile boolean closed;

  public SolrHistoryRecorder(
      SolrClient client, String collection, RecorderSettings settings, SolrHistoryGate gate) {
    this(client, collection, settings, gate, HistoryBatchObserver.NONE);
  }

  /** A recorder that tells {@code observer} of every batch it sends. */
  public SolrHistoryRecorder(
      SolrClient client,
      String collection,
      RecorderSettings settings,
      SolrHistoryGate gate,
      HistoryBatchObserver observer) {
    this(client, collection, settings, gate, observer, RollupSlots.DEFAULT);
  }

  /** A recorder that marks the rollup slots of {@code slots} dirty as it writes. */
  public SolrHistoryRecorder(
      SolrClient client,
      String collection,
      RecorderSettings settings,
      SolrHistoryGate gate,
      HistoryBatchObserver observer,
      RollupSlots slots) {
    this(client, HistoryCollections.single(collection), settings, gate, observer, slots);
  }

  /**
   * A recorder writing to {@code collections} (a single collection, or a time-routed alias: {@link
   * SolrHistoryStore#collections()}).
   */
  public SolrHistoryRecorder(
      SolrClient client,
      HistoryCollections collections,
      RecorderSettings settings,
      SolrHistoryGate gate,
      HistoryBatchObserver observer,
      RollupSlots slots) {
    this.settings = settings;
    this.writer =
        new BatchWriter(client, collections, settings.commitWithin(), gate, observer, slots);
    this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
    this.inFlight = new Semaphore(settings.concurrency());
    this.senders =
        Executors.newFixedThreadPool(
            settings.concurrency(), Thread.ofPlatform().name("solr-history-writer-", 0).factory());
    this.dispatcher =
        Thread.ofPlatform().name("solr-history-batcher").daemon().unstarted(this::dispatch);
    dispatcher.start();
    this.copiesCheck = new ScheduledRuns("solr-history-copies", this::checkCopies);
    copiesCheck.start();
  }

  /** One sweep of {@link SecondCopies}; the next in {@link #COPIES_CHECK_INTERVAL}. */
  private Duration checkCopies() {
    try {
      writer.secondCopies().sweep(Instant.now());
    } catch (Exception e) {
      log.warn(
          "checking redelivered requests for a second copy failed, retrying in {}: {}",
          COPIES_CHECK_INTERVAL,
          BatchWriter.describe(e));
    }
    return COPIES_CHECK_INTERVAL;
  }

  /** The redelivered requests' documents checked again for a second copy. */
  SecondCopies secondCopies() {
    return writer.secondCopies();
  }

  /** Second copies of redelivered requests' documents deleted so far ({@link SecondCopies}). */
  public long secondCopiesRemoved() {
    return writer.secondCopies().removed();
  }

  /** Redelivered documents left unchecked for a second copy because the watch list was full. */
  public long secondCopiesUnchecked() {
    return writer.secondCopies().unwatched();
  }

  /** Redelivered documents still to be checked for a second copy. */
  public int secondCopiesWatched() {
    return writer.secondCopies().watched();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Blocks while the queue is full. Fails at once when the recorder is closed or the calling
   * thread is interrupted while waiting.
   */
  @Override
  public CompletableFuture<Void> record(MessageInfo info) {
    return enqueue(info, true);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The document is added without Solr's overwrite: Lucene then need not look its id up in every
   * segment, which at a hundred million random ids is more than half of Solr's work per document.
   */
  @Override
  public CompletableFuture<Void> recordNew(MessageInfo info) {
    return enqueue(info, false);
  }

  private CompletableFuture<Void> enqueue(MessageInfo info, boolean replaces) {
    CompletableFuture<Void> accepted = new CompletableFuture<>();
    if (closed) {
      accepted.completeExceptionally(new SolrHistoryException("history recorder is closed"));
      return accepted;
    }
    PendingRecord pending =
        new PendingRecord(
            SolrDocumentMapper.toDocument(info), accepted, System.nanoTime(), replaces);
    try {
      queue.put(pending);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      accepted.completeExceptionally(new SolrHistoryException("interrupted while queueing", e));
    }
    if (closed && !dispatcher.isAlive() && queue.remove(pending)) {
      accepted.completeExceptionally(new SolrHistoryException("history recorder is closed"));
    }
    return accepted;
  }

  /** Documents waiting to be sent. */
  public int queued() {
    return queue.size();
  }

  private void dispatch() {
    try {
      while (!closed || !queue.isEmpty()) {
        inFlight.acquire();
        List<PendingRecord> batch = nextBatch();
        if (batch.isEmpty()) {
          inFlight.release();
          continue;
        }
        senders.execute(() -> send(batch));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The next batch; empty when nothing arrived within the probe interval (probes if down). */
  private List<PendingRecord> nextBatch() throws InterruptedException {
    PendingRecord first = queue.poll(settings.probeInterval().toNanos(), TimeUnit.NANOSECONDS);
    if (first == null) {
      if (!closed && writer.isDown()) {
        writer.probe();
      }
      return List.of();
    }
    List<PendingRecord> batch = new ArrayList<>(Math.min(settings.batchSize(), 1024));
    batch.add(first);
    queue.drainTo(batch, settings.batchSize() - batch.size());
    long lingerUntil = System.nanoTime() + settings.maxDelay().toNanos();
    while (batch.size() < settings.batchSize() && !closed) {
      long left = lingerUntil - System.nanoTime();
      PendingRecord next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
      if (next == null) {
        break;
      }
      batch.add(next);
      queue.drainTo(batch, settings.batchSize() - batch.size());
    }
    return batch;
  }

  private void send(List<PendingRecord> batch) {
    try {
      List<PendingRecord> live = failExpired(batch);
      if (!live.isEmpty()) {
        writer.write(live);
      }
    } finally {
      inFlight.release();
    }
  }

  private List<PendingRecord> failExpired(List<PendingRecord> batch) {
    long oldestAllowed = System.nanoTime() - settings.requestTimeout().toNanos();
    List<PendingRecord> live = new ArrayList<>(batch.size());
    SolrHistoryException expired = null;
    for (PendingRecord pending : batch) {
      if (pending.enqueuedNanos() - oldestAllowed >= 0) {
        live.add(pending);
        continue;
      }
      if (expired == null) {
        String why = "documents waited longer than " + settings.requestTimeout() + " to be sent";
        writer.tooSlow(why);
        expired = new SolrHistoryException(why + ": Solr is too slow or down");
      }
      pending.accepted().completeExceptionally(expired);
    }
    return live;
  }

  /**
   * Stops taking documents, sends what is queued, and waits up to twice the request timeout for the
   * last batches. Documents still unsettled then are failed.
   */
  @Override
  public void close() throws InterruptedException {
    closed = true;
    copiesCheck.close();
    long wait = settings.requestTimeout().toMillis() * 2;
    dispatcher.join(wait);
    senders.shutdown();
    if (!senders.awaitTermination(wait, TimeUnit.MILLISECONDS)) {
      senders.shutdownNow();
    }
    dispatcher.interrupt();
    SolrHistoryException closing = new SolrHistoryException("history recorder closed");
    PendingRecord left;
    while ((left = queue.poll()) != null) {
      left.accepted().completeExceptionally(closing);
    }
  }
}
