package io.github.avgateway.core.trace.brave;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.github.avgateway.core.logging.RateLimitedWarning;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.LoggerFactory;

/**
 * Hands finished spans to another span handler in batches, from a thread of its own ({@value
 * #THREAD}) once every interval, instead of one by one from the threads that finish them.
 *
 * <p>Made for Zipkin's {@code AsyncZipkinSpanHandler}: its reporter's queue wakes the reporter's
 * flush thread for every span offered while that thread waits, so at 1,500 spans a second the flush
 * thread woke about 1,200 times a second and the reporter's threads took 4.3 µs of the gateway's
 * CPU per request, 2.5 µs with batches (perf-notes/gateway.md, tracing); given a batch, it wakes
 * once for the batch. The spans reach the reporter up to one interval later; the reporter itself
 * batches them for up to a second before it sends.
 *
 * <p>Bounded: at most {@code capacity} spans wait; a span beyond that is dropped and counted
 * ({@link #dropped()}, and a WARN line at most once a minute), as the reporter drops spans when its
 * own queue is full. A handler that throws loses that span only. Closing hands over what waits; a
 * span finished after that goes to the handler at once (one finished in the very moment of closing
 * may be left waiting).
 */
public final class BatchingSpanHandler extends SpanHandler implements AutoCloseable {

  /** The name of the thread that hands the batches over. */
  public static final String THREAD = "span-batcher";

  private final SpanHandler delegate;
  private final long intervalNanos;
  private final int capacity;
  private final ConcurrentLinkedQueue<Ended> waiting = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();
  private final LongAdder dropped = new LongAdder();
  private final RateLimitedWarning full =
      new RateLimitedWarning(
          LoggerFactory.getLogger(BatchingSpanHandler.class),
          Duration.ofMinutes(1),
          1,
          Clock.systemUTC());
  private final Thread batcher;
  private volatile boolean closed;

  /**
   * Starts the thread that hands spans to {@code delegate} every {@code interval}.
   *
   * @param delegate the handler the spans go to
   * @param interval how long a span waits at most before it is handed over (positive)
   * @param capacity how many spans may wait (positive)
   */
  public BatchingSpanHandler(SpanHandler delegate, Duration interval, int capacity) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    if (interval.isNegative() || interval.isZero() || capacity <= 0) {
      throw new IllegalArgumentException(
          "interval and capacity must be positive: " + interval + ", " + capacity);
    }
    this.intervalNanos = interval.toNanos();
    this.capacity = capacity;
    this.batcher = Thread.ofPlatform().name(THREAD).daemon().start(this::handOverEveryInterval);
  }

  @Override
  public boolean begin(TraceContext context, MutableSpan span, TraceContext parent) {
    return delegate.begin(context, span, parent);
  }

  @Override
  public boolean end(TraceContext context, MutableSpan span, Cause cause) {
    if (closed) {
      return delegate.end(context, span, cause);
    }
    if (size.incrementAndGet() > capacity) {
      size.decrementAndGet();
      dropped.increment();
      full.warn(
          "full",
          "{} finished spans wait for the reporter; more are dropped until it takes them",
          capacity);
      return true;
    }
    waiting.add(new Ended(context, span, cause));
    return true;
  }

  @Override
  public boolean handlesAbandoned() {
    return delegate.handlesAbandoned();
  }

  /** Spans dropped because {@code capacity} spans were waiting. */
  public long dropped() {
    return dropped.sum();
  }

  /** Hands every waiting span over now; returns how many. */
  int handOver() {
    int handed = 0;
    Ended ended;
    while ((ended = waiting.poll()) != null) {
      size.decrementAndGet();
      try {
        delegate.end(ended.context(), ended.span(), ended.cause());
      } catch (RuntimeException e) {
        // The span is lost, nothing else: a failing handler never stops the others' spans.
      }
      handed++;
    }
    return handed;
  }

  private void handOverEveryInterval() {
    while (!closed) {
      LockSupport.parkNanos(intervalNanos);
      handOver();
    }
  }

  /** Stops the thread and hands over what waits (spans finished later go over at once). */
  @Override
  public void close() throws InterruptedException {
    closed = true;
    LockSupport.unpark(batcher);
    batcher.join(Duration.ofSeconds(5));
    handOver();
  }

  @Override
  public String toString() {
    return "BatchingSpanHandler{" + delegate + "}";
  }

  private record Ended(TraceContext context, MutableSpan span, Cause cause) {}
}
