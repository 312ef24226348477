package io.github.avgateway.core.history;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs one check on a daemon thread of its own, every interval (at least 10 ms) from {@link
 * #start()} until {@link #stop()}: what the front-ends' history backlog probes run on. A check that
 * throws is not run again, so checks catch what they expect. Thread-safe.
 */
public final class RepeatingCheck {

  private final String threadName;
  private final Runnable check;
  private final long intervalMillis;
  private ScheduledExecutorService executor;

  public RepeatingCheck(String threadName, Runnable check, Duration interval) {
    this.threadName = threadName;
    this.check = check;
    this.intervalMillis = Math.max(10, interval.toMillis());
  }

  public synchronized void start() {
    if (executor == null) {
      executor =
          Executors.newSingleThreadScheduledExecutor(
              r -> Thread.ofPlatform().daemon().name(threadName).unstarted(r));
      executor.scheduleWithFixedDelay(check, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }
  }

  public synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  public synchronized boolean running() {
    return executor != null;
  }
}
