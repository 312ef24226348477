package io.github.avgateway.core.clamd;

import java.io.Closeable;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds socket writes, which Java cannot time out by itself: a clamd that stops reading (frozen,
 * overloaded) would otherwise block a scan forever once the socket buffers are full. An armed guard
 * whose deadline passed has its socket closed, which makes the blocked write fail.
 *
 * <p>Arming and disarming a guard is two atomic writes on the writing thread: one checker thread
 * looks at every guard each {@link #CHECK_EVERY}, so a write is cut between its deadline and one
 * check period later. (A timer task per write, as before, woke the timer thread on almost every
 * write: a context switch per scan.)
 */
final class Watchdog implements Closeable {

  /** How often the deadlines are checked: the most a stalled write can overrun its deadline. */
  static final Duration CHECK_EVERY = Duration.ofMillis(50);

  private static final long IDLE = 0;
  private static final long FIRED = 1;

  /** Deadlines are kept relative to this, so that they are never IDLE or FIRED. */
  private final long base = System.nanoTime() - 2;

  private final Set<Guard> guards = ConcurrentHashMap.newKeySet();
  private final ScheduledThreadPoolExecutor checker;

  Watchdog() {
    checker =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "clamd-watchdog");
              thread.setDaemon(true);
              return thread;
            });
    long period = CHECK_EVERY.toNanos();
    checker.scheduleWithFixedDelay(this::check, period, period, TimeUnit.NANOSECONDS);
  }

  /** The guard of {@code socket}'s writes, kept for the socket's life; unarmed. */
  Guard guard(Socket socket) {
    Guard guard = new Guard(socket);
    guards.add(guard);
    return guard;
  }

  private long now() {
    return System.nanoTime() - base;
  }

  /** Closes the sockets whose armed deadline passed; forgets the guards of closed sockets. */
  private void check() {
    long now = now();
    for (Guard guard : guards) {
      long deadline = guard.state.get();
      if (deadline > FIRED && now - deadline > 0 && guard.state.compareAndSet(deadline, FIRED)) {
        guard.fire();
      }
      if (guard.socket.isClosed()) {
        guards.remove(guard);
      }
    }
  }

  @Override
  public void close() {
    checker.shutdownNow();
  }

  /** The deadline of one socket's current write, if any. Armed and disarmed by one thread. */
  final class Guard {
    private final Socket socket;
    private final AtomicLong state = new AtomicLong(IDLE);

    private Guard(Socket socket) {
      this.socket = socket;
    }

    /** Closes the socket unless {@link #disarm()} comes within {@code timeout}. */
    void arm(Duration timeout) {
      state.compareAndSet(IDLE, Math.max(FIRED + 1, now() + timeout.toNanos()));
    }

    private void fire() {
      try {
        socket.close();
      } catch (IOException e) {
        // Closing is all the guard can do; the blocked write fails either way.
      }
    }

    /** Ends the deadline; returns whether it had passed (the socket is closed then). */
    boolean disarm() {
      return state.getAndSet(IDLE) == FIRED;
    }
  }
}
