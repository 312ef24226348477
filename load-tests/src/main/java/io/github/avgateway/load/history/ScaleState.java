package io.github.avgateway.load.history;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * What a scale run has written so far, kept in {@code state.properties} next to the Solr home so
 * that a later run continues the same index: the 30-day window, the fill passes (each a range of
 * document indices spread over the window) and how many documents came through the broker. Saved by
 * a rename, so a run killed at any point leaves the last saved state.
 */
final class ScaleState {

  /** The global index of the first document written through the broker (never a fill's). */
  static final long INGESTED_BASE = 1_000_000_000_000L;

  /**
   * One fill pass: documents {@code first} to {@code first + size - 1}, of which the first {@code
   * written} were accepted by Solr.
   *
   * @param first global index of the pass' first document
   * @param size documents in the pass (they spread over the whole window)
   * @param written documents of the pass known to be accepted
   */
  record Pass(long first, long size, long written) {
    Pass written(long count) {
      return new Pass(first, size, count);
    }
  }

  private final Path file;
  final Instant windowStart;
  final List<Pass> passes;
  long ingested;

  private ScaleState(Path file, Instant windowStart, List<Pass> passes, long ingested) {
    this.file = file;
    this.windowStart = windowStart;
    this.passes = passes;
    this.ingested = ingested;
  }

  /** The state in {@code dir}, or a new one whose window ends at {@code windowEnd}. */
  static ScaleState load(Path dir, Instant windowEnd) throws IOException {
    Path file = dir.resolve("state.properties");
    if (Files.notExists(file)) {
      return new ScaleState(file, windowEnd.minus(ScaleData.WINDOW), new ArrayList<>(), 0);
    }
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
    }
    List<Pass> passes = new ArrayList<>();
    for (String pass : p.getProperty("passes", "").split(";")) {
      if (!pass.isBlank()) {
        String[] f = pass.split(":");
        passes.add(new Pass(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])));
      }
    }
    return new ScaleState(
        file,
        Instant.parse(p.getProperty("windowStart")),
        passes,
        Long.parseLong(p.getProperty("ingested", "0")));
  }

  /** Documents written so far (fill passes and broker windows). */
  long documents() {
    return passes.stream().mapToLong(Pass::written).sum() + ingested;
  }

  /** The next free global index of a fill pass. */
  long nextFirst() {
    return passes.isEmpty() ? 0 : passes.getLast().first() + passes.getLast().size();
  }

  synchronized void save() throws IOException {
    Properties p = new Properties();
    p.setProperty("windowStart", windowStart.toString());
    List<String> encoded = new ArrayList<>();
    passes.forEach(x -> encoded.add(x.first() + ":" + x.size() + ":" + x.written()));
    p.setProperty("passes", String.join(";", encoded));
    p.setProperty("ingested", Long.toString(ingested));
    Path tmp = file.resolveSibling("state.properties.tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      p.store(out, "history scale benchmark state");
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
