package io.github.avgateway.load.history;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scale benchmark's options, {@code --name=value}:
 *
 * <ul>
 *   <li>{@code --dir} where the Solr home, the state and the logs live (default {@code
 *       load-tests/target/history-scale}); kept between runs, so a run continues the index
 *   <li>{@code --checkpoints} sizes to measure at, in order (default {@code 1M,10M,30M,100M})
 *   <li>{@code --ingest} documents per window through the broker (default {@code 1M})
 *   <li>{@code --docs-per-message} documents per history message (default 16, an AMQP batch)
 *   <li>{@code --warm} timed calls per query warm (default 50); {@code --cold-rounds} restarts for
 *       the cold calls (default 3); {@code --drop-caches=false} keeps the page cache
 *   <li>{@code --fill-threads} (2), {@code --solr-heap} (6g), {@code --indexer-heap} (1g)
 *   <li>{@code --fill-only} fills to the checkpoints without measuring; {@code --queries-only}
 *       measures size and queries only (no purge, no ingest: the index keeps its size); {@code
 *       --feedback} shows the retention feedback at the last checkpoint
 *   <li>{@code --jfr} records a CPU profile of the indexer and of Solr during each ingest window
 *       (Java Flight Recorder) and prints their hottest methods; the recordings stay under {@code
 *       --dir}/profiles
 * </ul>
 */
record ScaleOptions(
    Path repo,
    Path dir,
    Path raw,
    List<Long> checkpoints,
    long ingest,
    int docsPerMessage,
    int warm,
    int coldRounds,
    boolean dropCaches,
    int fillThreads,
    String solrHeap,
    String indexerHeap,
    boolean fillOnly,
    boolean queriesOnly,
    boolean feedback,
    boolean jfr,
    String rabbitHost,
    int rabbitPort) {

  static ScaleOptions parse(String[] args) {
    Map<String, String> given = new HashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("not an option: " + arg);
      }
      int eq = arg.indexOf('=');
      given.put(
          eq < 0 ? arg.substring(2) : arg.substring(2, eq),
          eq < 0 ? "true" : arg.substring(eq + 1));
    }
    Path repo = Path.of(System.getProperty("harness.repo", ".")).toAbsolutePath().normalize();
    Opts o = new Opts(given);
    ScaleOptions options =
        new ScaleOptions(
            repo,
            Path.of(o.get("dir", repo.resolve("load-tests/target/history-scale").toString())),
            Path.of(o.get("raw", repo.resolve("perf-notes/raw").toString())),
            sizes(o.get("checkpoints", "1M,10M,30M,100M")),
            size(o.get("ingest", "1M")),
            Integer.parseInt(o.get("docs-per-message", "16")),
            Integer.parseInt(o.get("warm", "50")),
            Integer.parseInt(o.get("cold-rounds", "3")),
            Boolean.parseBoolean(o.get("drop-caches", "true")),
            Integer.parseInt(o.get("fill-threads", "2")),
            o.get("solr-heap", "6g"),
            o.get("indexer-heap", "1g"),
            Boolean.parseBoolean(o.get("fill-only", "false")),
            Boolean.parseBoolean(o.get("queries-only", "false")),
            Boolean.parseBoolean(o.get("feedback", "false")),
            Boolean.parseBoolean(o.get("jfr", "false")),
            o.get("rabbit-host", "127.0.0.1"),
            Integer.parseInt(o.get("rabbit-port", "5672")));
    if (!given.isEmpty()) {
      throw new IllegalArgumentException("unknown options: " + given.keySet());
    }
    return options;
  }

  long lastCheckpoint() {
    return checkpoints.getLast();
  }

  /** Takes each option out of the map as it is read, so that what is left is unknown. */
  private record Opts(Map<String, String> given) {
    String get(String name, String fallback) {
      String value = given.remove(name);
      return value == null ? fallback : value;
    }
  }

  static List<Long> sizes(String list) {
    List<Long> sizes = new ArrayList<>();
    Arrays.stream(list.split(",")).map(String::strip).forEach(s -> sizes.add(size(s)));
    return sizes;
  }

  /** {@code 1M}, {@code 250k}, {@code 1000}. */
  static long size(String text) {
    String s = text.strip().toUpperCase(Locale.ROOT);
    long unit = s.endsWith("M") ? 1_000_000 : s.endsWith("K") ? 1_000 : 1;
    String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
    return Math.round(Double.parseDouble(digits) * unit);
  }
}
