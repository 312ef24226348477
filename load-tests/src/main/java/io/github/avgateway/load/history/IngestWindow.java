package io.github.avgateway.load.history;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One ingest window through the real path: {@code count} documents published as history messages
 * while no indexer runs, then an indexer-only gateway started to drain them into Solr. The rate is
 * taken from the first acknowledged message to the last (the queue's depth, read from RabbitMQ: a
 * message leaves the queue only after Solr accepted its documents), the CPU of the indexer, Solr
 * and RabbitMQ over the same span. With {@code withPurge}, the oldest day is purged ten seconds
 * into the drain, and the rate during the purge is set against the rate of the ten seconds before.
 */
final class IngestWindow {

  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration LIMIT = Duration.ofMinutes(30);
  private final HistoryScale run;

  IngestWindow(HistoryScale run) {
    this.run = run;
  }

  /**
   * What a window measured.
   *
   * @param documents documents drained
   * @param seconds from the first acknowledged message to the last
   * @param indexerMicros the indexer's CPU per document
   * @param solrMicros Solr's CPU per document
   * @param rabbitMicros RabbitMQ's CPU per document
   * @param purge the purge run during the drain, or null
   * @param rateBefore docs/s over the ten seconds before the purge (0 without one)
   * @param rateDuring docs/s from the purge's start until its deletions were visible
   * @param stored documents the window added to what Solr shows (-1: not checked, a purge ran)
   */
  record Result(
      long documents,
      double seconds,
      double indexerMicros,
      double solrMicros,
      double rabbitMicros,
      PurgeRun purge,
      double rateBefore,
      double rateDuring,
      long stored) {

    Result stored(long documentsStored) {
      return new Result(
          documents,
          seconds,
          indexerMicros,
          solrMicros,
          rabbitMicros,
          purge,
          rateBefore,
          rateDuring,
          documentsStored);
    }

    double rate() {
      return documents / seconds;
    }

    String describe() {
      String solr = solrMicros == 0 ? " (Solr in it)" : String.format(", Solr %.1f µs", solrMicros);
      String base =
          String.format(
              "%,d documents in %.1f s: %,.0f docs/s; CPU per document: indexer %.1f µs%s,"
                  + " RabbitMQ %.1f µs (total %.1f µs)",
              documents,
              seconds,
              rate(),
              indexerMicros,
              solr,
              rabbitMicros,
              indexerMicros + solrMicros + rabbitMicros);
      if (stored >= 0) {
        base += String.format("; Solr shows %,d documents more", stored);
      }
      if (purge == null) {
        return base;
      }
      return base
          + String.format(
              "; purge of %,d documents: requests %,d ms, visible after %,d ms; ingest %,.0f docs/s"
                  + " during it against %,.0f docs/s in the 10 s before (%.0f %%)",
              purge.purged(),
              purge.requestMillis(),
              purge.visibleMillis(),
              rateDuring,
              rateBefore,
              100 * rateDuring / rateBefore);
    }
  }

  Result run(long count, boolean withPurge) throws Exception {
    return run(count, withPurge, false);
  }

  /**
   * As {@link #run(long, boolean)}; with {@code embedded}, the indexer holds the history itself
   * (the default deployment: no HTTP between indexer and Solr), and its CPU includes Solr's.
   */
  Result run(long count, boolean withPurge, boolean embedded) throws Exception {
    ScaleOptions options = run.options();
    int perMessage = options.docsPerMessage();
    long messages = (count + perMessage - 1) / perMessage;
    long before = SolrServerProcess.documents(run.client());
    Result result;
    try (HistoryPublisher publisher =
        new HistoryPublisher(options.rabbitHost(), options.rabbitPort(), run.data())) {
      publisher.purge();
      long published = System.nanoTime();
      publisher.publish(run.state().ingested, count, perMessage);
      run.out()
          .printf(
              "  published %,d documents in %,d messages in %.1f s%n",
              count, messages, Checkpoint.since(published));
      run.state().ingested += count;
      run.state().save();
      if (embedded) {
        try (IndexerProcess indexer = run.startEmbeddedIndexer()) {
          result = drain(publisher, indexer, messages, perMessage, false);
        } finally {
          run.restartSolr();
        }
      } else {
        try (IndexerProcess indexer = run.startIndexer()) {
          result = drain(publisher, indexer, messages, perMessage, withPurge);
        }
      }
    }
    return result.stored(stored(before, count, withPurge));
  }

  /**
   * The documents the window added to what Solr shows, waited for up to a minute (soft commits):
   * every published document must arrive, each once (a window that ends early, or a document
   * written twice, shows here). Not checked under a purge, which removes documents meanwhile.
   */
  private long stored(long before, long count, boolean withPurge) throws Exception {
    if (withPurge) {
      return -1;
    }
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    long added = SolrServerProcess.documents(run.client()) - before;
    while (added < count && System.nanoTime() < deadline) {
      Thread.sleep(Duration.ofSeconds(1));
      added = SolrServerProcess.documents(run.client()) - before;
    }
    if (added != count) {
      run.out()
          .printf(
              "  WARNING: Solr shows %,d more documents after the window, not the %,d published%n",
              added, count);
    }
    return added;
  }

  private Result drain(
      HistoryPublisher publisher,
      IndexerProcess indexer,
      long messages,
      int perMessage,
      boolean withPurge)
      throws Exception {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    long left = publisher.queued();
    while (left == messages && System.nanoTime() < deadline) {
      Thread.sleep(POLL);
      left = publisher.queued();
    }
    Snapshot first = Snapshot.take(indexer, run, messages - left);
    List<CpuProfile> profiles = profile(indexer);
    PurgeRun purge = null;
    double before = 0;
    double during = 0;
    if (withPurge) {
      Thread.sleep(Duration.ofSeconds(10));
      Snapshot start = Snapshot.take(indexer, run, messages - publisher.queued());
      before = start.rateSince(first, perMessage);
      purge = PurgeRun.oldestDay(run.client(), run.solr().pid(), run.data());
      Snapshot end = Snapshot.take(indexer, run, messages - publisher.queued());
      during = end.rateSince(start, perMessage);
    }
    Snapshot last = drained(publisher, indexer, messages, deadline);
    for (CpuProfile profile : profiles) {
      profile.stopAndPrint(run.out());
    }
    long docs = (last.acked() - first.acked()) * perMessage;
    return new Result(
        docs,
        (last.nanos() - first.nanos()) / 1e9,
        Checkpoint.micros(last.indexer() - first.indexer(), docs),
        Checkpoint.micros(last.solr() - first.solr(), docs),
        Checkpoint.micros(last.rabbit() - first.rabbit(), docs),
        purge,
        before,
        during,
        -1);
  }

  /**
   * The moment the queue was first seen empty (taken at that reading, so that confirming the 0 adds
   * nothing to the window), or the deadline's.
   */
  private Snapshot drained(
      HistoryPublisher publisher, IndexerProcess indexer, long messages, long deadline)
      throws Exception {
    while (System.nanoTime() < deadline) {
      if (publisher.ready() == 0) {
        Snapshot candidate = Snapshot.take(indexer, run, messages);
        if (publisher.queued() == 0) {
          return candidate;
        }
      }
      Thread.sleep(POLL);
    }
    return Snapshot.take(indexer, run, messages - publisher.queued());
  }

  /** With {@code --jfr}, starts a CPU profile of the indexer and of Solr (when it runs alone). */
  private List<CpuProfile> profile(IndexerProcess indexer) throws Exception {
    if (!run.options().jfr()) {
      return List.of();
    }
    Path dir = run.options().dir().resolve("profiles");
    List<CpuProfile> profiles = new ArrayList<>();
    profiles.add(CpuProfile.start(indexer.pid(), "indexer", dir));
    if (run.solr().pid() > 0) {
      profiles.add(CpuProfile.start(run.solr().pid(), "solr", dir));
    }
    return profiles;
  }

  /** Messages acknowledged and the processes' CPU ticks at one moment. */
  private record Snapshot(long nanos, long acked, long indexer, long solr, long rabbit) {
    static Snapshot take(IndexerProcess indexer, HistoryScale run, long acked) {
      return new Snapshot(
          System.nanoTime(),
          acked,
          Checkpoint.ticks(indexer.pid()),
          Checkpoint.ticks(run.solr().pid()),
          run.rabbitTicks());
    }

    double rateSince(Snapshot earlier, int perMessage) {
      return (acked - earlier.acked) * perMessage / ((nanos - earlier.nanos) / 1e9);
    }
  }
}
