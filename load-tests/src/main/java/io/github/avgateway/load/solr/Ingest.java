package io.github.avgateway.load.solr;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.solr.HistoryDocs;
import io.github.avgateway.solr.RecorderSettings;
import io.github.avgateway.solr.SolrDocumentMapper;
import io.github.avgateway.solr.SolrHistoryGate;
import io.github.avgateway.solr.SolrHistoryRecorder;
import io.github.avgateway.solr.SolrHistoryStore;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.solr.client.solrj.request.UpdateRequest;

/**
 * Ingest throughput. Producers are plain threads standing in for front-end consumers: each records
 * its share and the clock stops when every future has completed (Solr accepted all), so the figure
 * is accepted documents/s, not queued documents/s. Every document has a distinct id (no overwrites)
 * and realistic field values.
 */
final class Ingest {

  private static final AtomicLong IDS = new AtomicLong();
  private final SolrHistoryStore store;

  Ingest(SolrHistoryStore store) {
    this.store = store;
  }

  void batched(String label, int documents, int threads, RecorderSettings settings)
      throws Exception {
    try (SolrHistoryRecorder recorder =
        new SolrHistoryRecorder(
            store.client(), store.collection(), settings, new SolrHistoryGate())) {
      long start = System.nanoTime();
      long cpu = cpuNanos();
      List<CompletableFuture<Void>> futures = run(documents, threads, recorder::record);
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
      report(label, threads, settings.batchSize(), settings.concurrency(), documents, start, cpu);
    }
  }

  /** One update request per document, synchronous, from {@code threads} threads. */
  void oneByOne(int documents, int threads) throws Exception {
    long start = System.nanoTime();
    long cpu = cpuNanos();
    run(
        documents,
        threads,
        info -> {
          UpdateRequest request = new UpdateRequest();
          request.add(SolrDocumentMapper.toDocument(info));
          request.setCommitWithin(1000);
          try {
            request.process(store.client(), store.collection());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          return CompletableFuture.completedFuture(null);
        });
    report("one by one", threads, 1, threads, documents, start, cpu);
  }

  private static List<CompletableFuture<Void>> run(
      int documents, int threads, Function<MessageInfo, CompletableFuture<Void>> sink)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<List<CompletableFuture<Void>>>> parts = new ArrayList<>();
    int share = documents / threads;
    for (int t = 0; t < threads; t++) {
      parts.add(
          pool.submit(() -> {
            List<CompletableFuture<Void>> futures = new ArrayList<>(share);
            for (int i = 0; i < share; i++) {
              futures.add(sink.apply(next()));
            }
            return futures;
          }));
    }
    List<CompletableFuture<Void>> all = new ArrayList<>(documents);
    for (Future<List<CompletableFuture<Void>>> part : parts) {
      all.addAll(part.get(10, TimeUnit.MINUTES));
    }
    pool.shutdown();
    return all;
  }

  static MessageInfo next() {
    long n = IDS.incrementAndGet();
    return HistoryDocs.message(
        "bench", "bench-" + n, Verdict.CLEAN, Instant.now(), "%064x".formatted(n), List.of());
  }

  /** CPU time of this whole process (Solr and client), all threads. */
  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void report(
      String label,
      int threads,
      int batch,
      int inFlight,
      int documents,
      long startNanos,
      long startCpuNanos) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    double cpuMicrosPerDoc = (cpuNanos() - startCpuNanos) / 1e3 / documents;
    SolrHistoryBenchmark.print(
        SolrHistoryBenchmark.format(
            "| %s | %d | %d | %d | %d | %.2f | %.0f | %.1f | %.0f |",
            label,
            threads,
            batch,
            inFlight,
            documents,
            seconds,
            documents / seconds,
            cpuMicrosPerDoc,
            Runtime.getRuntime().availableProcessors() * 1e6 / cpuMicrosPerDoc));
  }
}
