package io.github.avgateway.core.trace.brave;

import brave.Tracing;
import brave.TracingCustomizer;
import brave.handler.SpanHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;

/**
 * Puts a {@link BatchingSpanHandler} in front of each of Zipkin's {@code AsyncZipkinSpanHandler}s
 * of the {@link Tracing} it customizes, in the same place among the handlers; with a zero interval
 * it leaves the handlers as they are. Closing closes the batchers, handing over what waits.
 */
public final class SpanBatching implements TracingCustomizer, AutoCloseable {

  /** Spans that may wait for the next hand-over (at 1,500 spans a second, several seconds). */
  static final int CAPACITY = 16_384;

  private final Duration interval;
  private final List<BatchingSpanHandler> batchers = new CopyOnWriteArrayList<>();

  /**
   * @param interval how often the batchers hand spans over; zero for no batching
   */
  public SpanBatching(Duration interval) {
    if (interval.isNegative()) {
      throw new IllegalArgumentException("negative span batch interval: " + interval);
    }
    this.interval = interval;
  }

  @Override
  public void customize(Tracing.Builder builder) {
    if (interval.isZero()) {
      return;
    }
    List<SpanHandler> handlers = new ArrayList<>(builder.spanHandlers());
    builder.clearSpanHandlers();
    for (SpanHandler handler : handlers) {
      if (handler instanceof AsyncZipkinSpanHandler) {
        BatchingSpanHandler batcher = new BatchingSpanHandler(handler, interval, CAPACITY);
        batchers.add(batcher);
        builder.addSpanHandler(batcher);
      } else {
        builder.addSpanHandler(handler);
      }
    }
  }

  /** The batchers made so far (one per Zipkin handler of each customized tracing). */
  public List<BatchingSpanHandler> batchers() {
    return List.copyOf(batchers);
  }

  @Override
  public void close() throws InterruptedException {
    for (BatchingSpanHandler batcher : batchers) {
      batcher.close();
    }
  }
}
