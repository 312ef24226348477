package io.github.avgateway.load.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Cold start of the runnable jars as users start them ({@code java -jar gateway-*-exec.jar},
 * history on, a fresh Solr home), and two start-up tunings: the jar extracted ({@code
 * -Djarmode=tools extract}, so classes load from plain jars) and, on top, a JDK AOT cache recorded
 * in a training run ({@code -XX:AOTCacheOutput}, JDK 25) and used by the next start ({@code
 * -XX:AOTCache}).
 */
final class ColdStarts {

  private final Options options;
  private final Report report;
  private final GatewayRuns runs;

  ColdStarts(Options options, Report report) {
    this.options = options;
    this.report = report;
    this.runs = new GatewayRuns(options, report);
  }

  void run(GatewayRuns.Kind kind, boolean withAot) throws Exception {
    String module = "gateway-" + kind.name().toLowerCase(Locale.ROOT);
    Path jar = execJar(module);
    if (jar == null) {
      report.note("# %s: no runnable jar under %s/target; build it first", module, module);
      return;
    }
    report.note("# %s cold starts, load average %s", module, Report.loadAverage());
    runs.startOnce(kind, "exec jar", jar, List.of(), 0);
    if (!withAot) {
      return;
    }
    Path extracted = options.work().resolve(module + "-extracted");
    extract(jar, extracted);
    Path app = extracted.resolve(jar.getFileName());
    runs.startOnce(kind, "extracted", app, List.of(), 0);
    Path aot = options.work().resolve(module + ".aot");
    runs.startOnce(kind, "AOT training", app, List.of("-XX:AOTCacheOutput=" + aot), 3000);
    if (Files.exists(aot)) {
      runs.startOnce(kind, "extracted + AOT cache", app, List.of("-XX:AOTCache=" + aot), 0);
    } else {
      report.note("# %s: the training run wrote no AOT cache", module);
    }
  }

  private Path execJar(String module) throws IOException {
    Path target = options.repo().resolve(module).resolve("target");
    if (!Files.isDirectory(target)) {
      return null;
    }
    try (Stream<Path> files = Files.list(target)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith("-exec.jar"))
          .findFirst()
          .orElse(null);
    }
  }

  private static void extract(Path jar, Path destination) throws IOException, InterruptedException {
    GatewayRuns.deleteTree(destination);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Djarmode=tools");
    command.add("-jar");
    command.add(jar.toString());
    command.add("extract");
    command.add("--destination");
    command.add(destination.toString());
    Process process = new ProcessBuilder(command).inheritIO().start();
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("extracting " + jar + " failed");
    }
  }
}
