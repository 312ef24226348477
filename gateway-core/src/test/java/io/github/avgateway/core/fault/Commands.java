package io.github.avgateway.core.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Runs a command of a fault rig to its end (bounded) and returns what it printed. */
final class Commands {

  private Commands() {}

  /**
   * Starts {@code builder} (its error output merged into its output), waits at most {@code limit},
   * and returns the output; fails, naming {@code what} and the output, when the command did not end
   * in time or ended with another status than 0.
   */
  static String run(ProcessBuilder builder, Duration limit, String what) {
    try {
      Process process = builder.redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException(what + ": " + out);
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what, e);
    }
  }
}
