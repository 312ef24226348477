package io.github.avgateway.load.history;

import io.github.avgateway.load.harness.CpuMeter;
import io.github.avgateway.solr.SolrRollups;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The measurements at one checkpoint, printed as one table, in this order so that the queries see
 * the checkpoint's size: the counting of the fill's slots, size on disk and in Solr's heap, every
 * query warm and cold, a purge of the oldest day alone, then ingest through the broker and the
 * indexer, and a purge under ingest (each ingest window adds its documents to the index).
 */
final class Checkpoint {

  private final HistoryScale run;
  private final PrintStream out;
  private final List<String[]> rows = new ArrayList<>();

  Checkpoint(HistoryScale run) {
    this.run = run;
    this.out = run.out();
  }

  void measure(long checkpoint) throws Exception {
    out.printf("%n## checkpoint %,d documents%n", checkpoint);
    long started = System.nanoTime();
    SolrRollups.Run counted = run.countSlots();
    row(
        "per-slot counts of the fill",
        "%,d slots counted, %,d days summed in %.1f s",
        counted.counted(),
        counted.days(),
        since(started));
    size("at the checkpoint");
    if (run.options().ingestOnly()) {
      ingestWindows();
      print(checkpoint);
      return;
    }
    queriesWarm();
    queriesCold();
    if (run.options().queriesOnly()) {
      print(checkpoint);
      return;
    }
    purgeAlone();
    ingestWindows();
    purgeUnderIngest();
    size("at the end");
    if (run.options().feedback() && checkpoint == run.options().lastCheckpoint()) {
      new FeedbackRun(run).demonstrate();
    }
    print(checkpoint);
  }

  /** Ingest with the indexer's embedded Solr, then with Solr over HTTP. */
  private void ingestWindows() throws Exception {
    boolean settle = run.options().settleMerges();
    if (settle) {
      settleMerges("merges the fill left due", 0);
    }
    IngestWindow.Result embedded = new IngestWindow(run).run(run.options().ingest(), false, true);
    row("ingest through an indexer with embedded Solr", "%s", embedded.describe());
    afterWindow(settle, embedded);
    catchUp("after ingest");
    IngestWindow.Result ingest = ingestWindow(false);
    row("ingest through an indexer, Solr over HTTP", "%s", ingest.describe());
    afterWindow(settle, ingest);
    catchUp("after ingest");
  }

  /**
   * The merges a window left due (a window ends with the last acknowledged message, and stopping an
   * indexer with embedded Solr aborts the merges in flight): run to the end when settling, so that
   * their CPU is counted per document of the window and the next window starts where this one would
   * have left a deployment; printed only otherwise. The standalone Solr's stop waits for its merges
   * in flight instead, uncounted, so after a window over HTTP little or nothing is due.
   */
  private void afterWindow(boolean settle, IngestWindow.Result window) throws Exception {
    if (settle) {
      settleMerges("merges the window left due", window.documents());
    } else {
      row("merges due after it", "%s", run.mergesDue().describe());
    }
  }

  /**
   * Lets the merges due finish. Before the first window: the fill writes about ten times faster
   * than a gateway and aborts merges in flight at each restart of Solr, so a window on its index
   * would pay for merges a deployment paid as it grew.
   */
  private void settleMerges(String what, long windowDocuments) throws Exception {
    MergeSettle.Settled settled = run.settleMerges();
    String perDocument =
        windowDocuments == 0
            ? ""
            : String.format(
                " = %.1f µs per document of the window",
                settled.cpuSeconds() * 1e6 / windowDocuments);
    row(
        what,
        "%s; all finished in %.0f s (%.0f s CPU%s; two merge threads, no I/O throttle); then %s",
        settled.before().describe(),
        settled.seconds(),
        settled.cpuSeconds(),
        perDocument,
        settled.after().describe());
  }

  /**
   * Counts the slots the ingest left marked (the indexer counts them within a minute or two; here
   * at once, so that queries see what a deployment sees between bursts).
   */
  private void catchUp(String when) {
    long started = System.nanoTime();
    SolrRollups.Run counted = run.countSlots();
    row(
        "per-slot counts " + when,
        "%,d slots counted, %,d days summed in %.1f s",
        counted.counted(),
        counted.days(),
        since(started));
  }

  private void size(String when) throws Exception {
    long docs = SolrServerProcess.documents(run.client());
    SolrServerProcess.Segments committed = run.solr().segments();
    long directory = run.solr().indexBytes();
    row(
        "index " + when,
        "%,d documents; committed segments %s: %.1f bytes/doc (%,d deleted documents not yet"
            + " merged away); directory %s with merges in flight (+ transaction log %s); Solr heap"
            + " after a full GC %s",
        docs,
        HistoryScale.mib(committed.bytes()),
        committed.bytes() / (double) docs,
        committed.deleted(),
        HistoryScale.mib(directory),
        HistoryScale.mib(run.solr().tlogBytes()),
        HistoryScale.mib(run.solr().heapAfterGc()));
  }

  private IngestWindow.Result ingestWindow(boolean withPurge) throws Exception {
    IngestWindow window = new IngestWindow(run);
    return window.run(run.options().ingest(), withPurge);
  }

  private void queriesWarm() throws Exception {
    ApiQueries api = new ApiQueries(run.data(), run.state());
    try (IndexerProcess indexer = run.startIndexer()) {
      api.target(indexer);
      for (Map.Entry<String, LongFunction<Double>> q : api.all().entrySet()) {
        ApiQueries.repeat(q.getValue(), 3, 0); // the JIT and the connection
        ApiQueries.Percentiles p =
            ApiQueries.Percentiles.of(ApiQueries.repeat(q.getValue(), run.options().warm(), 7));
        row(
            "warm: " + q.getKey(),
            "p50 %.1f ms, p99 %.1f ms (%d calls)",
            p.p50(),
            p.p99(),
            p.count());
      }
    }
  }

  private void queriesCold() throws Exception {
    ApiQueries api = new ApiQueries(run.data(), run.state());
    Map<String, List<Double>> cold = new LinkedHashMap<>();
    List<String> names = new ArrayList<>(api.all().keySet());
    for (int round = 0; round < run.options().coldRounds(); round++) {
      run.restartSolr();
      try (IndexerProcess indexer = run.startIndexer()) {
        api.target(indexer);
        Map<String, LongFunction<Double>> queries = api.all();
        for (int i = 0; i < names.size(); i++) {
          String name = names.get((i + round * 5) % names.size());
          cold.computeIfAbsent(name, n -> new ArrayList<>())
              .add(queries.get(name).apply(round * 1000L));
        }
      }
    }
    for (String name : names) {
      ApiQueries.Percentiles p = ApiQueries.Percentiles.of(cold.get(name));
      row(
          "cold: " + name,
          "median %.1f ms, max %.1f ms (%d restarts of Solr and the indexer%s)",
          p.p50(),
          p.p99(),
          p.count(),
          run.options().dropCaches() ? ", page cache dropped" : "");
    }
  }

  private void purgeAlone() throws Exception {
    PurgeRun purge = PurgeRun.oldestDay(run.client(), run.solr().pid(), run.data());
    row(
        "purge of the oldest day (no ingest)",
        "%,d documents; requests %,d ms; visible after %,d ms; Solr CPU %.2f µs per purged"
            + " document%s",
        purge.purged(),
        purge.requestMillis(),
        purge.visibleMillis(),
        purge.solrCpuMicrosPerDocument(),
        purge.behind() ? "; BEHIND" : "");
    run.restoreOldestDay();
  }

  private void purgeUnderIngest() throws Exception {
    IngestWindow.Result ingest = ingestWindow(true);
    row("ingest while the oldest day is purged", "%s", ingest.describe());
    run.restoreOldestDay();
    catchUp("after the purge");
  }

  private void row(String what, String format, Object... args) {
    rows.add(new String[] {what, String.format(format, args)});
    out.printf("  %s: %s%n", what, String.format(format, args));
  }

  private void print(long checkpoint) {
    out.printf("%n| %,d documents | measured |%n|---|---|%n", checkpoint);
    for (String[] r : rows) {
      out.printf("| %s | %s |%n", r[0], r[1]);
    }
  }

  static double since(long nanos) {
    return (System.nanoTime() - nanos) / 1e9;
  }

  static double micros(long ticks, long docs) {
    return docs == 0 ? 0 : ticks * 10_000.0 / docs;
  }

  static long ticks(long pid) {
    return Math.max(0, CpuMeter.ticks(pid));
  }
}
