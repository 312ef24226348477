package io.github.avgateway.solr;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs a task on a daemon thread of its own: once at {@link #start()}, then again after the delay
 * each run returns, until {@link #close()}. The task catches what it expects; one that throws is
 * not run again. What retention and the per-slot counts run on.
 */
final class ScheduledRuns implements AutoCloseable {

  private final String threadName;
  private final Supplier<Duration> task;
  private ScheduledExecutorService scheduler;

  /**
   * @param task one run; returns how long to wait before the next
   */
  ScheduledRuns(String threadName, Supplier<Duration> task) {
    this.threadName = threadName;
    this.task = task;
  }

  synchronized void start() {
    if (scheduler == null) {
      scheduler =
          Executors.newSingleThreadScheduledExecutor(
              Thread.ofPlatform().name(threadName).daemon().factory());
      scheduler.execute(this::runAndReschedule);
    }
  }

  private void runAndReschedule() {
    Duration next = task.get();
    ScheduledExecutorService current;
    synchronized (this) {
      current = scheduler;
    }
    if (current != null && !current.isShutdown()) {
      current.schedule(this::runAndReschedule, next.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** Stops the schedule; a run in progress is interrupted and finishes its current request. */
  @Override
  public synchronized void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
  }
}
