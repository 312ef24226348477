package io.github.avgateway.load.history;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Where the run's output goes: standard output and a raw file under perf-notes/raw/. */
final class ScaleReport implements AutoCloseable {

  private final PrintStream out;
  private final Path file;

  private ScaleReport(PrintStream out, Path file) {
    this.out = out;
    this.file = file;
  }

  static ScaleReport open(ScaleOptions options) throws IOException {
    Files.createDirectories(options.raw());
    String stamp =
        LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path file = options.raw().resolve("history-scale-" + stamp + ".txt");
    OutputStream raw = new FileOutputStream(file.toFile());
    OutputStream both =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            System.out.write(b);
            raw.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            System.out.write(b, off, len);
            raw.write(b, off, len);
          }

          @Override
          public void flush() throws IOException {
            System.out.flush();
            raw.flush();
          }

          @Override
          public void close() throws IOException {
            raw.close();
          }
        };
    PrintStream out = new PrintStream(both, true, StandardCharsets.UTF_8);
    out.println("# history scale benchmark, raw output (" + file.getFileName() + ")");
    return new ScaleReport(out, file);
  }

  PrintStream out() {
    return out;
  }

  static void machine(PrintStream out, ScaleOptions options) throws IOException {
    var os = ManagementFactory.getOperatingSystemMXBean();
    out.printf(
        "machine: %d cores, JDK %s, load average %.2f at the start; disk free under %s: %,d MiB%n",
        Runtime.getRuntime().availableProcessors(),
        Runtime.version(),
        os.getSystemLoadAverage(),
        options.dir(),
        Files.getFileStore(options.dir()).getUsableSpace() >> 20);
    out.printf("options: %s%n", options);
  }

  @Override
  public void close() {
    out.printf(
        "load average at the end %.2f; raw output in %s%n",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), file);
    out.close();
  }
}
