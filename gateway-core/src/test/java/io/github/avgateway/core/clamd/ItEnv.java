package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.fail;

import io.github.avgateway.core.testing.TestEnv;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/** Where the integration tests find clamd and the repository, and what they share. */
final class ItEnv {

  private ItEnv() {}

  /** The project's clamd (scripts/services.sh start clamd), passed in by failsafe. */
  static ClamdEndpoint sharedClamd() {
    return new ClamdEndpoint("127.0.0.1", TestEnv.clamdPort());
  }

  /** Fails the calling test (never skips it) when the shared clamd does not answer PING. */
  static void requireSharedClamd() {
    ClamdEndpoint clamd = sharedClamd();
    if (!answersPing(clamd)) {
      fail(
          "clamd does not answer on "
              + clamd
              + ": start it with scripts/services.sh start clamd (integration tests need it)");
    }
  }

  /** Whether {@code endpoint} answers a plain {@code zPING} with PONG within a second. */
  static boolean answersPing(ClamdEndpoint endpoint) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), 1000);
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      out.write("zPING\0".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readNBytes(5), StandardCharsets.US_ASCII).equals("PONG\0");
    } catch (IOException e) {
      return false;
    }
  }

  /** Settings for tests: the defaults with timeouts short enough to keep tests quick. */
  static ClamdSettings.Builder settings(ClamdEndpoint... endpoints) {
    return ClamdSettings.builder(List.of(endpoints))
        .connectTimeout(Duration.ofSeconds(1))
        .readTimeout(Duration.ofSeconds(45))
        .probeInterval(Duration.ofMillis(200))
        .borrowTimeout(Duration.ofSeconds(30))
        .maxSizeBytes(20L * 1024 * 1024);
  }

  /** A TCP port nothing listens on right now. */
  static int freePort() {
    return TestEnv.freePort();
  }

  /** Deterministic pseudo-random bytes: no signature matches them. */
  static byte[] randomBytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new SplittableRandom(seed).nextBytes(bytes);
    return bytes;
  }

  /** The 44 files of Debian's clamav-testfiles package, each detected by the project's MD5. */
  static List<Path> clamavTestFiles() throws IOException {
    Path dir = Path.of("/usr/share/clamav-testfiles");
    if (!Files.isDirectory(dir)) {
      fail(dir + " is missing: install clamav-testfiles (scripts/services.sh start clamd does)");
    }
    try (var files = Files.list(dir)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    }
  }
}
