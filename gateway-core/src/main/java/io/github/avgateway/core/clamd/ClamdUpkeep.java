package io.github.avgateway.core.clamd;

import io.github.avgateway.core.clamd.ClamdEndpoints.Member;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scanner's background work on one daemon thread: probes endpoints that are down, and idle ones
 * that are up, every {@code probeInterval}, and asks clamd for its version every {@code
 * versionRefresh} (and at once on start). A failing task is logged and runs again at its next turn.
 */
final class ClamdUpkeep implements Closeable {

  private static final Logger log = LoggerFactory.getLogger(ClamdUpkeep.class);

  private final ClamdSettings settings;
  private final ClamdEndpoints endpoints;
  private final ClamdAttempts attempts;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "clamd-upkeep");
        thread.setDaemon(true);
        return thread;
      });

  ClamdUpkeep(ClamdSettings settings, ClamdEndpoints endpoints, ClamdAttempts attempts) {
    this.settings = settings;
    this.endpoints = endpoints;
    this.attempts = attempts;
  }

  void start() {
    every(settings.probeInterval(), endpoints::probe);
    every(settings.versionRefresh(), this::refreshVersion);
  }

  private void every(Duration period, Runnable task) {
    var unused =
        timer.scheduleWithFixedDelay(
            () -> runSafely(task), 0, period.toNanos(), TimeUnit.NANOSECONDS);
  }

  private static void runSafely(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      log.warn("clamd upkeep task failed; it runs again at its next turn", e);
    }
  }

  private void refreshVersion() {
    Optional<Member> member = endpoints.pick();
    if (member.isEmpty()) {
      return;
    }
    try {
      attempts.refreshVersion(member.get());
    } catch (IOException | RuntimeException e) {
      log.debug("clamd {} did not tell its version: {}", member.get().endpoint(), e.toString());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
