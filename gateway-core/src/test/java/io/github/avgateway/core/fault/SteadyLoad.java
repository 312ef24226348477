package io.github.avgateway.core.fault;

import io.github.avgateway.core.fault.FaultPayloads.Payload;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady open-loop load for a fault run: the mixed load of {@link FaultPayloads#mixed} (every
 * tenth request EICAR, plain or zipped), request {@code i} keyed {@code prefix + i}, sent at a
 * fixed rate by one platform thread until {@link #stop()}. A send that blocks (a broker away)
 * delays the ones after it, which then go out at once to keep the schedule, as callers with a
 * backlog do.
 */
public final class SteadyLoad implements AutoCloseable {

  /** Sends one request of the load (the transport's fault client). */
  @FunctionalInterface
  public interface Sender {
    void send(String key, Payload payload);
  }

  private final AtomicBoolean sending = new AtomicBoolean(true);
  private final AtomicInteger sent = new AtomicInteger();
  private final Thread thread;

  private SteadyLoad(String prefix, int perSecond, Sender sender) {
    long interval = 1_000_000_000L / perSecond;
    thread =
        Thread.ofPlatform()
            .name("steady-load-" + prefix)
            .start(() -> {
              long next = System.nanoTime();
              while (sending.get()) {
                int i = sent.getAndIncrement();
                sender.send(prefix + i, FaultPayloads.mixed(prefix, i, 10));
                next += interval;
                LockSupport.parkNanos(next - System.nanoTime());
              }
            });
  }

  /** Starts sending {@code perSecond} requests a second through {@code sender}. */
  public static SteadyLoad start(String prefix, int perSecond, Sender sender) {
    return new SteadyLoad(prefix, perSecond, sender);
  }

  /** Requests sent (or being sent) so far. */
  public int sent() {
    return sent.get();
  }

  /** Stops sending and waits (at most two minutes) for a send in progress to return. */
  public void stop() throws InterruptedException {
    sending.set(false);
    thread.join(120_000);
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
