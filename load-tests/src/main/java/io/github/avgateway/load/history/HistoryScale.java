package io.github.avgateway.load.history;

import io.github.avgateway.load.harness.CpuMeter;
import io.github.avgateway.solr.HistoryBatchObserver;
import io.github.avgateway.solr.RecorderSettings;
import io.github.avgateway.solr.RollupSlots;
import io.github.avgateway.solr.SolrHistoryException;
import io.github.avgateway.solr.SolrHistoryGate;
import io.github.avgateway.solr.SolrHistoryRecorder;
import io.github.avgateway.solr.SolrRollups;
import io.github.avgateway.solr.StandaloneSolr;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * The history scale benchmark (a measurement, not a test): fills a history to each checkpoint size
 * through the project's mapper and batch writer, and measures at each checkpoint what a deployment
 * of that size sees: ingest through the real path (history messages on RabbitMQ drained by an
 * indexer-only gateway into Solr), index bytes per document, Solr's heap, every history query of
 * the page and the API warm and cold, and a retention purge of the oldest day alone and under
 * ingest. Resumable: the index and {@code state.properties} under {@code --dir} are kept, and a
 * later run continues from them. Run it with {@code load-tests/history-scale.sh}.
 */
public final class HistoryScale {

  private final ScaleOptions options;
  private final PrintStream out;
  private final ScaleState state;
  private final ScaleData data;
  private final SolrServerProcess solr;
  private Http2SolrClient client;

  private HistoryScale(ScaleOptions options, PrintStream out) throws Exception {
    this.options = options;
    this.out = out;
    Files.createDirectories(options.dir().resolve("logs"));
    Instant windowEnd = Instant.now().truncatedTo(ChronoUnit.DAYS);
    this.state = ScaleState.load(options.dir(), windowEnd);
    this.data = new ScaleData(state.windowStart);
    this.solr =
        new SolrServerProcess(
            options.dir().resolve("solr"), options.dir().resolve("logs"), options.solrHeap());
  }

  public static void main(String[] args) throws Exception {
    if (ScaleCommand.helpAsked(args, System.out)) {
      return;
    }
    ScaleOptions options = ScaleOptions.parse(args);
    try (ScaleReport report = ScaleReport.open(options)) {
      new HistoryScale(options, report.out()).run();
    }
  }

  private void run() throws Exception {
    ScaleReport.machine(out, options);
    out.printf(
        "window %s .. %s; %,d documents written before this run%n",
        data.windowStart(), data.windowEnd(), state.documents());
    solr.start();
    client = solr.client(Duration.ofMinutes(2));
    try {
      IndexerProcess.start(
              options.repo(), solr.baseUrl(), log("indexer-declare"), "512m", List.of())
          .close(); // declares the history queue the publisher needs
      for (long checkpoint : options.checkpoints()) {
        fillTo(checkpoint);
        if (!options.fillOnly()) {
          new Checkpoint(this).measure(checkpoint);
        }
      }
    } finally {
      client.close();
      solr.close();
    }
  }

  /**
   * Declares the benchmark's history queue (an indexer declares it as it starts, and stops while it
   * is still empty) and empties it of what an interrupted run left.
   */
  private void emptyQueue() throws Exception {
    try (HistoryPublisher publisher =
        new HistoryPublisher(options.rabbitHost(), options.rabbitPort(), data)) {
      publisher.purge();
      return;
    } catch (java.io.IOException notDeclared) {
      // no queue yet: the indexer below declares it
    }
    startIndexer().close();
  }

  /** Writes fill passes until the history holds {@code target} documents. */
  void fillTo(long target) throws Exception {
    if (state.documents() >= target) {
      return;
    }
    out.printf("%n[fill] to %,d documents (now %,d)%n", target, state.documents());
    try (SolrHistoryRecorder recorder = recorder()) {
      ScaleFill fill = new ScaleFill(recorder, data, out);
      while (state.documents() < target) {
        ScaleState.Pass last = state.passes.isEmpty() ? null : state.passes.getLast();
        if (last == null || last.written() == last.size()) {
          state.passes.add(new ScaleState.Pass(state.nextFirst(), target - state.documents(), 0));
          last = state.passes.getLast();
        }
        int index = state.passes.size() - 1;
        ScaleState.Pass pass = last;
        fill.fill(
            pass.first(),
            pass.size(),
            pass.written(),
            pass.size(),
            options.fillThreads(),
            1_000_000,
            written -> save(index, pass, written));
      }
    }
  }

  /** Writes again the documents of the window's first day (after a purge removed them). */
  void restoreOldestDay() throws Exception {
    try (SolrHistoryRecorder recorder = recorder()) {
      ScaleFill fill = new ScaleFill(recorder, data, out);
      for (ScaleState.Pass pass : state.passes) {
        long dayEnd = Math.min(pass.written(), pass.size() / 30 + 2);
        fill.fill(pass.first(), pass.size(), 0, dayEnd, options.fillThreads(), dayEnd + 1, w -> {});
      }
    }
  }

  private void save(int index, ScaleState.Pass pass, long written) {
    state.passes.set(index, pass.written(written));
    try {
      state.save();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private SolrHistoryRecorder recorder() {
    RecorderSettings d = RecorderSettings.defaults();
    RecorderSettings settings =
        new RecorderSettings(
            1_000,
            d.maxDelay(),
            20_000,
            4,
            d.commitWithin(),
            Duration.ofMinutes(2),
            d.probeInterval());
    return new SolrHistoryRecorder(
        client,
        StandaloneSolr.CORE,
        settings,
        new SolrHistoryGate(),
        HistoryBatchObserver.NONE,
        RollupSlots.DEFAULT);
  }

  /**
   * Counts every dirty slot the fill left and sums the days they belong to (as the indexer's rollup
   * job would over time); returns the slots counted and the days summed.
   */
  SolrRollups.Run countSlots() {
    SolrRollups rollups =
        new SolrRollups(
            client,
            StandaloneSolr.CORE,
            RollupSlots.DEFAULT,
            Duration.ofMinutes(1),
            Duration.ZERO,
            Duration.ofSeconds(2),
            Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC));
    int counted = 0;
    int days = 0;
    int failures = 0;
    while (true) {
      SolrRollups.Run run;
      try {
        run = rollups.runOnce();
      } catch (SolrHistoryException e) {
        // a run stops at a failed request; the next one takes the slots still marked
        if (++failures > 5) {
          throw e;
        }
        out.printf("  (counting slots: %s; trying again)%n", e.getMessage());
        continue;
      }
      counted += run.counted();
      days += run.days();
      if (!run.more() && run.counted() == 0 && run.again() == 0 && run.days() == 0) {
        return new SolrRollups.Run(counted, 0, days, false);
      }
    }
  }

  Path log(String name) {
    return options.dir().resolve("logs").resolve(name + "-" + System.nanoTime() + ".log");
  }

  ScaleOptions options() {
    return options;
  }

  PrintStream out() {
    return out;
  }

  ScaleState state() {
    return state;
  }

  ScaleData data() {
    return data;
  }

  SolrServerProcess solr() {
    return solr;
  }

  Http2SolrClient client() {
    return client;
  }

  /** An indexer-only gateway draining the benchmark's queue into this run's Solr. */
  IndexerProcess startIndexer() throws Exception {
    return startIndexer(List.of());
  }

  IndexerProcess startIndexer(List<String> extra) throws Exception {
    return IndexerProcess.start(
        options.repo(), solr.baseUrl(), log("indexer"), options.indexerHeap(), extra);
  }

  /**
   * An indexer holding the history itself (embedded Solr on this run's Solr home): the standalone
   * Solr is stopped first; {@link #restartSolr()} brings it back.
   */
  IndexerProcess startEmbeddedIndexer() throws Exception {
    client.close();
    solr.stop();
    return IndexerProcess.startEmbedded(
        options.repo(), solr.home(), log("indexer-embedded"), options.solrHeap());
  }

  /**
   * Stops the standalone Solr, lets the merges due on its index finish in this JVM ({@link
   * MergeSettle}) and starts Solr again.
   */
  MergeSettle.Settled settleMerges() throws Exception {
    client.close();
    solr.stop();
    try {
      return MergeSettle.settle(solr.home(), StandaloneSolr.CORE, Duration.ofHours(3));
    } finally {
      solr.start();
      client = solr.client(Duration.ofMinutes(2));
    }
  }

  /** The merges due on the index's latest commit. */
  MergeSettle.Due mergesDue() throws java.io.IOException {
    return MergeSettle.due(solr.indexDirectory());
  }

  /** Restarts Solr (and makes a new client): the cold runs. */
  void restartSolr() throws Exception {
    client.close();
    solr.stop(); // no-op when already stopped
    if (options.dropCaches()) {
      dropPageCache();
    }
    solr.start();
    client = solr.client(Duration.ofMinutes(2));
  }

  private static void dropPageCache() throws Exception {
    new ProcessBuilder("sync").start().waitFor();
    Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3\n");
  }

  /** CPU ticks of the RabbitMQ node the run publishes to (other nodes on the machine excluded). */
  long rabbitTicks() {
    long sum = 0;
    for (long pid : CpuMeter.byName("beam.smp")) {
      if (servesPort(pid, options.rabbitPort())) {
        sum += Math.max(0, CpuMeter.ticks(pid));
      }
    }
    return sum;
  }

  /**
   * Whether the RabbitMQ node {@code pid} listens on {@code port}: its environment names the port,
   * or, naming none, it is Debian's default node (home /var/lib/rabbitmq, port 5672).
   */
  private static boolean servesPort(long pid, int port) {
    try {
      String env =
          Files.readString(Path.of("/proc", Long.toString(pid), "environ")).replace('\0', '\n');
      if (env.contains("RABBITMQ_NODE_PORT=")) {
        return env.contains("RABBITMQ_NODE_PORT=" + port + "\n");
      }
      String cmd =
          Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
      return port == 5672 && cmd.contains("-home /var/lib/rabbitmq ");
    } catch (java.io.IOException e) {
      return false;
    }
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%,.0f MiB", bytes / 1048576.0);
  }
}
