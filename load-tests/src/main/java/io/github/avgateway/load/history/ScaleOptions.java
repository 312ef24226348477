package io.github.avgateway.load.history;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The scale benchmark's options, as {@link ScaleCommand} parses them from the command line (where
 * each flag's meaning is).
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
    boolean ingestOnly,
    boolean feedback,
    boolean jfr,
    boolean settleMerges,
    String rabbitHost,
    int rabbitPort) {

  static ScaleOptions parse(String[] args) {
    Path repo = Path.of(System.getProperty("harness.repo", ".")).toAbsolutePath().normalize();
    return ScaleCommand.parse(args, repo);
  }

  long lastCheckpoint() {
    return checkpoints.getLast();
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
