package io.github.avgateway.load.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Threads that keep a given share of the cores busy ({@code --echo-burn=CORES}): each spins for its
 * share of every millisecond and sleeps for the rest. Run next to a broker echo at the gateway's
 * half-load rate, it makes the machine busier, towards how busy it is in the gateway's own
 * half-load cell, to see how much of the gateway's tail the machine's load alone explains. It gets
 * what the scheduler gives it, which can be less than it asks for: its CPU shows in the driver's
 * column of the cell it ran in, and the cell's total says how busy the machine really was.
 */
final class Burner implements AutoCloseable {

  private static final long PERIOD_NANOS = 1_000_000;

  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopped;

  private Burner(double cores) {
    int count = (int) Math.ceil(cores);
    long busy = Math.round(PERIOD_NANOS * cores / count);
    for (int i = 0; i < count; i++) {
      Thread thread = new Thread(() -> burn(busy), "burner-" + i);
      thread.setDaemon(true);
      threads.add(thread);
    }
  }

  /** Starts burning {@code cores} cores (e.g. 0.3), in whole threads of equal shares. */
  static Burner start(double cores) {
    if (!(cores > 0 && cores <= Runtime.getRuntime().availableProcessors())) {
      throw new IllegalArgumentException("cores to burn must be above 0 and at most the cores");
    }
    Burner burner = new Burner(cores);
    burner.threads.forEach(Thread::start);
    return burner;
  }

  /** Its threads, for tests. */
  List<Thread> threads() {
    return List.copyOf(threads);
  }

  private void burn(long busyNanos) {
    while (!stopped) {
      long start = System.nanoTime();
      while (System.nanoTime() - start < busyNanos) {
        Thread.onSpinWait();
      }
      if (busyNanos < PERIOD_NANOS) {
        LockSupport.parkNanos(PERIOD_NANOS - busyNanos);
      }
    }
  }

  /** Stops the threads and waits for them (they stop within a millisecond). */
  @Override
  public void close() {
    stopped = true;
    boolean interrupted = false;
    for (Thread thread : threads) {
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
