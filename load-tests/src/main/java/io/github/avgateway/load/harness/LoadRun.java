package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Drives a {@link Transport}: a closed loop (a fixed number of requests in flight, as fast as
 * answers come: the maximum rate) or an open loop (requests at a fixed rate whatever the answers
 * do: latency at a given load, measured from each request's <em>scheduled</em> time so that a stall
 * is not hidden by sending less). Each run warms up, then measures for a fixed time; requests are
 * counted when answered inside the window (throughput = answers in the window / its length, so
 * requests in flight at either edge neither inflate nor deflate it). Every run is bounded in time
 * and stops by itself.
 */
final class LoadRun {

  private final Transport transport;
  private final byte[] payload;
  private final Verdict expected;
  private final Duration warmup;
  private final Duration measure;
  private final Duration answerTimeout;
  private final Supplier<CpuMeter> meters;

  LoadRun(
      long childPid,
      Transport transport,
      byte[] payload,
      Verdict expected,
      Duration warmup,
      Duration measure,
      Duration answerTimeout) {
    this(
        () -> new CpuMeter(childPid), transport, payload, expected, warmup, measure, answerTimeout);
  }

  /**
   * Random 1 KiB payloads expected CLEAN, with {@code options}' warm-up and window: the half-load
   * cells' run.
   */
  static LoadRun oneKib(long childPid, Transport transport, Options options) {
    return new LoadRun(
        childPid,
        transport,
        Payloads.random(1024, 1024),
        Verdict.CLEAN,
        options.warmup(),
        options.measure(),
        Harness.ANSWER_TIMEOUT);
  }

  /** A run whose CPU figures come from {@code meters} (one new meter per measurement window). */
  LoadRun(
      Supplier<CpuMeter> meters,
      Transport transport,
      byte[] payload,
      Verdict expected,
      Duration warmup,
      Duration measure,
      Duration answerTimeout) {
    this.transport = transport;
    this.payload = payload;
    this.expected = expected;
    this.warmup = warmup;
    this.measure = measure;
    this.answerTimeout = answerTimeout;
    this.meters = meters;
  }

  /** Keeps {@code window} requests in flight until the measurement window closes. */
  Cell closedLoop(String target, String variant, int window) throws InterruptedException {
    Window w = new Window();
    Semaphore slots = new Semaphore(window);
    while (System.nanoTime() < w.end) {
      w.meterFrom(System.nanoTime());
      if (!slots.tryAcquire(100, TimeUnit.MILLISECONDS)) {
        continue;
      }
      long sent = System.nanoTime();
      track(w, sent, transport.send(payload)).whenComplete((v, e) -> slots.release());
    }
    String cpu = w.cpu();
    drain(slots, window);
    return w.cell(cpu, target, variant, payload.length, window, measure);
  }

  /** Sends {@code perSecond} requests a second until the measurement window closes. */
  Cell openLoop(String target, String variant, double perSecond) throws InterruptedException {
    Window w = new Window();
    long interval = (long) (1_000_000_000L / perSecond);
    long next = System.nanoTime();
    AtomicLong outstanding = new AtomicLong();
    long cap = Math.max(1000, (long) (perSecond * answerTimeout.toSeconds()));
    while (next < w.end) {
      long now = System.nanoTime();
      w.meterFrom(now);
      if (now < next) {
        LockSupport.parkNanos(next - now);
        continue;
      }
      if (outstanding.get() > cap) {
        w.failed.incrementAndGet();
      } else {
        outstanding.incrementAndGet();
        track(w, next, transport.send(payload))
            .whenComplete((v, e) -> outstanding.decrementAndGet());
      }
      next += interval;
    }
    String cpu = w.cpu();
    long deadline = System.nanoTime() + answerTimeout.toNanos();
    while (outstanding.get() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return w.cell(cpu, target, variant, payload.length, 0, measure);
  }

  private CompletableFuture<Verdict> track(Window w, long sent, CompletableFuture<Verdict> f) {
    return f.orTimeout(answerTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete((verdict, error) -> {
          long done = System.nanoTime();
          if (done < w.start || done > w.end) {
            return;
          }
          if (error != null || verdict != expected) {
            w.failed.incrementAndGet();
          } else {
            w.completed.incrementAndGet();
            w.latencies.add((done - sent) / 1000);
          }
        });
  }

  private void drain(Semaphore slots, int window) throws InterruptedException {
    if (!slots.tryAcquire(window, answerTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS)) {
      System.err.println("  (some requests were still unanswered after the timeout)");
    } else {
      slots.release(window);
    }
  }

  /** The measurement window of one run and what was counted in it. */
  private final class Window {
    final long start = System.nanoTime() + warmup.toNanos();
    final long end = start + measure.toNanos();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final Latencies latencies = new Latencies();
    private CpuMeter meter;

    /** Starts the CPU meter once the measurement window has opened. */
    void meterFrom(long now) {
      if (meter == null && now >= start) {
        meter = meters.get();
      }
    }

    String cpu() {
      return meter == null ? "" : meter.perRequest(completed.get());
    }

    Cell cell(String cpu, String target, String variant, int size, int window, Duration length) {
      return new Cell(
          target,
          variant,
          size,
          window,
          completed.get(),
          failed.get(),
          length.toMillis() / 1000.0,
          latencies.percentileMillis(50),
          latencies.percentileMillis(90),
          latencies.percentileMillis(99),
          latencies.percentileMillis(100),
          cpu);
    }
  }
}
