package io.github.avgateway.core.clamd;

import java.io.Closeable;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds socket writes, which Java cannot time out by itself: a clamd that stops reading (frozen,
 * overloaded) would otherwise block a scan forever once the socket buffers are full. An armed guard
 * closes the socket when its time runs out, which makes the blocked write fail.
 */
final class Watchdog implements Closeable {

  private final ScheduledThreadPoolExecutor timer;

  Watchdog() {
    timer =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "clamd-watchdog");
              thread.setDaemon(true);
              return thread;
            });
    timer.setRemoveOnCancelPolicy(true);
  }

  /** Closes {@code socket} after {@code timeout} unless the returned guard is disarmed first. */
  Guard arm(Socket socket, Duration timeout) {
    Guard guard = new Guard(socket);
    guard.future = timer.schedule(guard::fire, timeout.toNanos(), TimeUnit.NANOSECONDS);
    return guard;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }

  /** One armed deadline. */
  static final class Guard {
    private final Socket socket;
    private final AtomicBoolean fired = new AtomicBoolean();
    private volatile ScheduledFuture<?> future;

    private Guard(Socket socket) {
      this.socket = socket;
    }

    private void fire() {
      fired.set(true);
      try {
        socket.close();
      } catch (IOException e) {
        // Closing is all the guard can do; the blocked write fails either way.
      }
    }

    /** Cancels the deadline; returns whether it had already fired (the socket is closed then). */
    boolean disarm() {
      ScheduledFuture<?> pending = future;
      if (pending != null) {
        pending.cancel(false);
      }
      return fired.get();
    }
  }
}
