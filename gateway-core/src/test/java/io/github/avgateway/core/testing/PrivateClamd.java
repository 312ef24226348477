package io.github.avgateway.core.testing;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.clamd.ClamdEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
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
 * A clamd of the test's own, for tests that stop, freeze, reload or reconfigure it (the shared
 * clamd on 3310 is never touched). Rendered from the project's clamd.conf template and signatures
 * with its own port and state directory, run in the foreground as a child process, and signalled by
 * its own pid only. Shipped in gateway-core's test-jar for every module's fault tests.
 */
public final class PrivateClamd implements AutoCloseable {

  private final Path dir;
  private final int port;
  private Process process;

  private PrivateClamd(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /** Starts a clamd with the project's settings, {@code overrides} replacing or adding lines. */
  public static PrivateClamd start(Map<String, String> overrides) throws IOException {
    PrivateClamd clamd =
        new PrivateClamd(Files.createTempDirectory("avgw-clamd-it-"), TestEnv.freePort());
    clamd.render(overrides);
    clamd.launch();
    return clamd;
  }

  private void render(Map<String, String> overrides) throws IOException {
    Path db = Files.createDirectories(dir.resolve("db"));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Path repo = TestEnv.repo();
    try (var signatures = Files.list(repo.resolve("scripts/clamd/signatures"))) {
      for (Path signature : signatures.toList()) {
        Files.copy(
            signature, db.resolve(signature.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    String template =
        Files.readString(repo.resolve("scripts/clamd/clamd.conf.in"), StandardCharsets.UTF_8)
            .replace("@STATE@", dir.toString())
            .replace("@TMP@", tmp.toString())
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

  /** Starts the clamd process (again, after a stop or kill) and waits until it answers PING. */
  public void launch() throws IOException {
    process =
        new ProcessBuilder(
                clamdBinary(), "-c", dir.resolve("clamd.conf").toString(), "--foreground")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("clamd.out").toFile()))
            .start();
    await("private clamd on port " + port + " (see " + dir + "/clamd.log)")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .failFast("clamd exited", () -> !process.isAlive())
        .until(() -> "PONG".equals(command("PING", Duration.ofSeconds(1))));
  }

  /** Stops the clamd process (SIGTERM, then SIGKILL after 10 s) and waits until it is gone. */
  public void stop() throws InterruptedException {
    if (process == null || !process.isAlive()) {
      return;
    }
    thaw();
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** {@code SIGSTOP}: clamd keeps its sockets open and answers nothing until {@link #thaw()}. */
  public void freeze() {
    TestEnv.signal(process.pid(), "STOP");
  }

  /** {@code SIGCONT} after {@link #freeze()}. */
  public void thaw() {
    if (process != null && process.isAlive()) {
      TestEnv.signal(process.pid(), "CONT");
    }
  }

  /**
   * Sends {@code zRELOAD} (clamd reloads its signature databases; with ConcurrentDatabaseReload it
   * keeps scanning meanwhile) and returns clamd's answer, {@code RELOADING}.
   */
  public String reload() {
    return command("RELOAD", Duration.ofSeconds(10));
  }

  /**
   * Writes (or replaces) the database file {@code name} in clamd's DatabaseDirectory, atomically
   * (clamd reads it at its next reload); {@code null} content removes it.
   */
  public void installDatabase(String name, byte[] content) throws IOException {
    Path db = dir.resolve("db");
    if (content == null) {
      Files.deleteIfExists(db.resolve(name));
      return;
    }
    Path staged = Files.write(dir.resolve(name + ".staged"), content);
    Files.move(
        staged,
        db.resolve(name),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  /** Sends one {@code z}-command on a fresh connection; the reply without its NUL, or null. */
  public String command(String command, Duration timeout) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      OutputStream out = socket.getOutputStream();
      out.write(("z" + command + "\0").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder reply = new StringBuilder();
      for (int b = in.read(); b > 0; b = in.read()) {
        reply.append((char) b);
      }
      return reply.toString();
    } catch (IOException e) {
      return null;
    }
  }

  public ClamdEndpoint endpoint() {
    return new ClamdEndpoint("127.0.0.1", port);
  }

  public int port() {
    return port;
  }

  /** clamd's own log file. */
  public Path logFile() {
    return dir.resolve("clamd.log");
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
