package io.github.avgateway.load.solr;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.solr.HistoryDocs;
import io.github.avgateway.solr.RetentionRun;
import io.github.avgateway.solr.RetentionSettings;
import io.github.avgateway.solr.SolrHistoryGate;
import io.github.avgateway.solr.SolrHistoryRecorder;
import io.github.avgateway.solr.SolrHistoryStore;
import io.github.avgateway.solr.SolrRetention;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.solr.client.solrj.SolrQuery;

/**
 * Retention cost at two index sizes. The small index holds {@code small} documents spread evenly
 * over 100 days; a purge deletes the oldest 10 days (10 %). Then {@code large} documents are added
 * over the remaining 90 days and a purge deletes the next 9 days (again about 10 %). For each
 * purge: the time of {@link SolrRetention#purgeOnce()} (count + delete-by-query requests) and the
 * time until the deletions are visible (the soft commit that applies them, commitWithin 1 s).
 */
final class RetentionCost {

  private static final Instant BASE = Instant.parse("2020-01-01T00:00:00Z");
  private static final Duration DAY = Duration.ofDays(1);
  private final SolrHistoryStore store;

  RetentionCost(SolrHistoryStore store) {
    this.store = store;
  }

  void measure(int small, int large) throws Exception {
    SolrHistoryBenchmark.print("");
    SolrHistoryBenchmark.print(
        "| index size | purged | purge requests (ms) | µs per purged doc | until visible (ms) |"
            + " CPU µs per purged doc, purge to visible |");
    SolrHistoryBenchmark.print("|---|---|---|---|---|---|");
    record(small, BASE, DAY.multipliedBy(100));
    purge(BASE.plus(DAY.multipliedBy(10)));
    record(large, BASE.plus(DAY.multipliedBy(10)), DAY.multipliedBy(90));
    purge(BASE.plus(DAY.multipliedBy(19)));
  }

  private void record(int n, Instant from, Duration span) throws Exception {
    long step = span.toMillis() / n;
    try (SolrHistoryRecorder recorder =
        new SolrHistoryRecorder(
            store.client(),
            store.collection(),
            SolrHistoryBenchmark.settings(1000, 4),
            new SolrHistoryGate())) {
      List<CompletableFuture<Void>> futures = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        String id = "ret-" + from.toEpochMilli() + "-" + i;
        Instant at = from.plusMillis(step * i);
        futures.add(
            recorder.record(
                HistoryDocs.message(
                    "retention", id, Verdict.CLEAN, at, "%064x".formatted(i), List.of())));
      }
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
    }
  }

  private void purge(Instant cutoff) throws Exception {
    awaitCount("*:*", -1);
    long size = count("*:*");
    Instant now = cutoff.plus(DAY.multipliedBy(30));
    RetentionSettings settings =
        new RetentionSettings(
            DAY.multipliedBy(30), Duration.ofHours(1), Duration.ofMinutes(5), DAY);
    SolrRetention retention =
        new SolrRetention(
            store.client(),
            store.collection(),
            settings,
            Duration.ofSeconds(1),
            new SolrHistoryGate(),
            Clock.fixed(now, ZoneOffset.UTC));
    long start = System.nanoTime();
    long cpu = Ingest.cpuNanos();
    RetentionRun run = retention.purgeOnce();
    awaitCount("receivedAt:[* TO " + cutoff + "}", 0);
    double untilVisibleMillis = (System.nanoTime() - start) / 1e6;
    double cpuMicrosPerDoc = (Ingest.cpuNanos() - cpu) / 1e3 / run.purged();
    SolrHistoryBenchmark.print(
        SolrHistoryBenchmark.format(
            "| %d | %d | %.0f | %.3f | %.0f | %.3f |",
            size,
            run.purged(),
            run.took().toNanos() / 1e6,
            run.microsPerDocument(),
            untilVisibleMillis,
            cpuMicrosPerDoc));
  }

  /** A retention of 30 days whose clock stands 30 days after {@code cutoff}. */
  private SolrRetention retentionWithCutoff(Instant cutoff) {
    RetentionSettings settings =
        new RetentionSettings(
            DAY.multipliedBy(30), Duration.ofHours(1), Duration.ofMinutes(5), DAY);
    return new SolrRetention(
        store.client(),
        store.collection(),
        settings,
        Duration.ofSeconds(1),
        new SolrHistoryGate(),
        Clock.fixed(cutoff.plus(DAY.multipliedBy(30)), ZoneOffset.UTC));
  }

  /** Waits until {@code q} counts {@code expected}, or (expected -1) until the count is stable. */
  private void awaitCount(String q, long expected) throws Exception {
    long last = -2;
    while (true) {
      long now = count(q);
      if (expected >= 0 ? now == expected : now == last) {
        return;
      }
      last = now;
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(expected >= 0 ? 5 : 1500));
    }
  }

  private long count(String q) throws Exception {
    SolrQuery query = new SolrQuery(q);
    query.setRows(0);
    return store.client().query(store.collection(), query).getResults().getNumFound();
  }
}
