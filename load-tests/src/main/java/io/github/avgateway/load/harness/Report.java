package io.github.avgateway.load.harness;

import io.github.avgateway.load.Payloads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Everything the harness measured, printed as it comes and appended to the raw results file. */
final class Report {

  private final Path file;
  private final List<Cell> cells = new ArrayList<>();

  Report(Path file) throws IOException {
    this.file = file;
    Files.createDirectories(file.getParent());
    Files.writeString(file, "", StandardCharsets.UTF_8);
  }

  void note(String format, Object... args) {
    write(String.format(Locale.ROOT, format, args));
  }

  /** The machine line every raw file starts with: cores, JVM, load average. */
  void machine() {
    note(
        "# cores %d, JVM %s, load average at start: %s",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.version"),
        loadAverage());
  }

  /** The run's timings and sizes, then the cell header. */
  void timings(Options options, String jitUnit) {
    String settle =
        options.jitSettle() > 0
            ? String.format(
                Locale.ROOT,
                " (gateways: then until their JIT uses < %s %% of a core, at most %d s)",
                options.jitSettle(),
                JitSettle.MAX.toSeconds())
            : "";
    note(
        "# JIT warm-up %ds per %s%s; warm-up %ds, measure %ds per cell; sizes %s",
        options.jitWarmup().toSeconds(),
        jitUnit,
        settle,
        options.warmup().toSeconds(),
        options.measure().toSeconds(),
        options.sizes().stream().map(Payloads::label).toList());
    note("%s", Cell.header());
  }

  void cell(Cell cell) {
    cells.add(cell);
    write(cell.line());
  }

  Optional<Cell> find(String target, String variant, int size) {
    return cells.stream()
        .filter(c -> c.target().equals(target) && c.variant().equals(variant) && c.size() == size)
        .findFirst();
  }

  /** The open-loop cell of {@code target} at {@code size} whose variant is {@code base @N/s}. */
  Optional<Cell> halfLoad(String target, String base, int size) {
    return cells.stream()
        .filter(c ->
            c.target().equals(target)
                && c.size() == size
                && c.variant().startsWith(base + " @")
                && !Double.isNaN(c.offeredRate()))
        .findFirst();
  }

  /** Every cell so far, in the order measured. */
  List<Cell> cells() {
    return List.copyOf(cells);
  }

  Path file() {
    return file;
  }

  private synchronized void write(String line) {
    System.out.println(line);
    System.out.flush();
    try {
      Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    } catch (IOException e) {
      System.err.println("could not write " + file + ": " + e);
    }
  }

  /** The load average now, from /proc/loadavg (1, 5, 15 minutes). */
  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "unknown";
    }
  }
}
