package io.github.avgateway.core.clamd;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A clamd of the test's own, for tests that stop, restart or reconfigure it (the shared clamd on
 * 3310 is never touched). Rendered from the project's clamd.conf template with its own port and
 * state directory, run in the foreground as a child process and stopped by its own pid.
 */
final class PrivateClamd implements AutoCloseable {

  private final Path dir;
  private final int port;
  private Process process;

  private PrivateClamd(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /** Starts a clamd with the project's settings, {@code overrides} replacing or adding lines. */
  static PrivateClamd start(Map<String, String> overrides) throws IOException {
    PrivateClamd clamd =
        new PrivateClamd(Files.createTempDirectory("avgw-clamd-it-"), ItEnv.freePort());
    clamd.render(overrides);
    clamd.launch();
    return clamd;
  }

  private void render(Map<String, String> overrides) throws IOException {
    Path db = Files.createDirectories(dir.resolve("db"));
    Files.createDirectories(dir.resolve("tmp"));
    Path repo = ItEnv.repo();
    try (var signatures = Files.list(repo.resolve("scripts/clamd/signatures"))) {
      for (Path signature : signatures.toList()) {
        Files.copy(
            signature, db.resolve(signature.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    String template =
        Files.readString(repo.resolve("scripts/clamd/clamd.conf.in"), StandardCharsets.UTF_8)
            .replace("@STATE@", dir.toString())
            .replace("@PORT@", Integer.toString(port));
    List<String> lines = new ArrayList<>();
    for (String line : template.lines().toList()) {
      String key = line.split("\\s+", 2)[0];
      lines.add(overrides.containsKey(key) ? key + " " + overrides.get(key) : line);
    }
    overrides.forEach((key, value) -> {
      if (lines.stream().noneMatch(l -> l.startsWith(key + " "))) {
        lines.add(key + " " + value);
      }
    });
    Files.write(dir.resolve("clamd.conf"), lines, StandardCharsets.UTF_8);
  }

  /** Starts the clamd process and waits until it answers PING. */
  void launch() throws IOException {
    process =
        new ProcessBuilder(
                clamdBinary(), "-c", dir.resolve("clamd.conf").toString(), "--foreground")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("clamd.out").toFile())
            .start();
    await("private clamd on port " + port + " (see " + dir + "/clamd.log)")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .failFast("clamd exited", () -> !process.isAlive())
        .until(() -> ItEnv.answersPing(endpoint()));
  }

  /** Stops the clamd process (SIGTERM, then SIGKILL after 10 s) and waits until it is gone. */
  void stop() throws InterruptedException {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  ClamdEndpoint endpoint() {
    return new ClamdEndpoint("127.0.0.1", port);
  }

  private static String clamdBinary() {
    for (String candidate : List.of("/usr/sbin/clamd", "/usr/local/sbin/clamd", "/usr/bin/clamd")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "clamd is not installed: run scripts/services.sh start clamd (it installs clamav-daemon)");
  }

  @Override
  public void close() throws Exception {
    stop();
    try (var files = Files.walk(dir)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
