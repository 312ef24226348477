package io.github.avgateway.load.solr;

import io.github.avgateway.solr.RecorderSettings;
import io.github.avgateway.solr.SolrHistoryStore;
import io.github.avgateway.solr.StandaloneSolr;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Solr history benchmark (a measurement, not a test): documents/s recorded one per update request
 * versus batched by {@code SolrHistoryRecorder}, the visibility delay after an accepted add, and
 * the cost of a retention purge at two index sizes. Solr runs in this JVM over HTTP on 127.0.0.1,
 * so client and server share the machine's cores, as on a one-box deployment.
 *
 * <p>Run: {@code ./mvnw -B -pl load-tests exec:exec@solr-history} after {@code ./mvnw -B install
 * -DskipTests}. Sizes: {@code -Dbench.batched=200000 -Dbench.oneByOne=5000
 * -Dbench.retention.small=100000 -Dbench.retention.large=1000000} (the defaults).
 */
public final class SolrHistoryBenchmark {

  private SolrHistoryBenchmark() {}

  public static void main(String[] args) throws Exception {
    int batched = Integer.getInteger("bench.batched", 200_000);
    int oneByOne = Integer.getInteger("bench.oneByOne", 5_000);
    int small = Integer.getInteger("bench.retention.small", 100_000);
    int large = Integer.getInteger("bench.retention.large", 1_000_000);
    Path dir = Files.createTempDirectory("solr-history-bench");
    print(
        "machine: %d cores, max heap %d MiB, JDK %s, load average at start %.2f"
            .formatted(
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20,
                Runtime.version(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
    ingest(dir.resolve("ingest"), batched, oneByOne);
    print(
        "load average after ingest: %.2f"
            .formatted(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
    try (StandaloneSolr solr = StandaloneSolr.start(dir.resolve("retention"));
        SolrHistoryStore store = solr.store(Duration.ofMinutes(5))) {
      new RetentionCost(store).measure(small, large);
    }
  }

  private static void ingest(Path home, int batched, int oneByOne) throws Exception {
    try (StandaloneSolr solr = StandaloneSolr.start(home);
        SolrHistoryStore store = solr.store(Duration.ofSeconds(30))) {
      Ingest ingest = new Ingest(store);
      print(
          "| mode | threads | batch size | in flight | documents | seconds | docs/s |"
              + " CPU µs/doc | docs/s if all cores were ours |");
      print("|---|---|---|---|---|---|---|---|---|");
      ingest.batched("warm-up", 20_000, 4, settings(500, 2));
      ingest.oneByOne(oneByOne, 4);
      ingest.batched("batched", batched, 4, settings(100, 2));
      ingest.batched("batched", batched, 4, settings(500, 2));
      ingest.batched("batched (defaults)", batched, 4, settings(1000, 4));
      ingest.batched("batched", batched, 16, settings(500, 2));
      ingest.batched("batched (defaults)", batched, 16, settings(1000, 4));
      new Visibility(store).measure(30);
    }
  }

  /**
   * The recorder's defaults with another batch size and concurrency, and a 60 s request timeout so
   * that a run on a busy machine measures slowness instead of aborting on expired documents.
   */
  static RecorderSettings settings(int batchSize, int concurrency) {
    RecorderSettings d = RecorderSettings.defaults();
    return new RecorderSettings(
        batchSize,
        d.maxDelay(),
        d.queueCapacity(),
        concurrency,
        d.commitWithin(),
        Duration.ofSeconds(60),
        d.probeInterval());
  }

  static void print(String line) {
    System.out.println(line);
  }

  static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
