package io.github.avgateway.core.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where tests find the repository, and free local ports. Shared by every module's tests. */
public final class TestEnv {

  private TestEnv() {}

  /** The repository root (clamd.conf template, signatures, scripts); failsafe passes it. */
  public static Path repo() {
    String configured = System.getProperty("avgateway.it.repo");
    Path start = Path.of(configured != null ? configured : "").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("scripts/clamd/clamd.conf.in"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no scripts/clamd/clamd.conf.in above " + start);
  }

  /** The port of the integration tests' clamd on 127.0.0.1 (failsafe passes it; 3310 otherwise). */
  public static int clamdPort() {
    return Integer.getInteger("avgateway.it.clamd.port", 3310);
  }

  /**
   * {@code 127.0.0.1:PORT} of the integration tests' clamd, as {@code avgateway.clamd.endpoints}.
   */
  public static String clamdEndpoint() {
    return "127.0.0.1:" + clamdPort();
  }

  /** A TCP port of 127.0.0.1 nothing listens on right now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}, {@code KILL}) to one process. */
  public static void signal(long pid, String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
      if (kill.waitFor() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
