package io.github.avgateway.core.trace.brave;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;

class BatchingSpanHandlerTest {

  private static final Duration LONG = Duration.ofHours(1);

  /** Records the names of the spans it is handed and the threads that handed them. */
  private static final class Recording extends SpanHandler {
    final List<String> names = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();

    @Override
    public boolean end(TraceContext context, MutableSpan span, Cause cause) {
      names.add(span.name());
      threads.add(Thread.currentThread().getName());
      return true;
    }
  }

  private static final TraceContext CONTEXT =
      TraceContext.newBuilder().traceId(1).spanId(2).sampled(true).build();

  private static boolean end(SpanHandler handler, String name) {
    MutableSpan span = new MutableSpan();
    span.name(name);
    return handler.end(CONTEXT, span, SpanHandler.Cause.FINISHED);
  }

  @Test
  void handsSpansOverInOrderFromItsOwnThreadOnceAnIntervalPassed() throws Exception {
    Recording recording = new Recording();
    try (BatchingSpanHandler batcher =
        new BatchingSpanHandler(recording, Duration.ofMillis(50), 100)) {
      assertThat(end(batcher, "a")).isTrue();
      end(batcher, "b");
      end(batcher, "c");
      await().atMost(Duration.ofSeconds(10)).until(() -> recording.names.size() == 3);
      assertThat(recording.names).containsExactly("a", "b", "c");
      assertThat(recording.threads).containsOnly(BatchingSpanHandler.THREAD);
      assertThat(batcher.dropped()).isZero();
    }
  }

  @Test
  void holdsSpansUntilTheIntervalAndHandsOverWhatWaitsWhenClosed() throws Exception {
    Recording recording = new Recording();
    BatchingSpanHandler batcher = new BatchingSpanHandler(recording, LONG, 100);
    end(batcher, "a");
    end(batcher, "b");
    assertThat(recording.names).as("handed over before the interval").isEmpty();
    batcher.close();
    assertThat(recording.names).containsExactly("a", "b");
    end(batcher, "after");
    assertThat(recording.names).as("a span finished after closing goes over at once").hasSize(3);
  }

  @Test
  void dropsAndCountsSpansBeyondItsCapacity() throws Exception {
    Recording recording = new Recording();
    BatchingSpanHandler batcher = new BatchingSpanHandler(recording, LONG, 2);
    end(batcher, "a");
    end(batcher, "b");
    end(batcher, "c");
    assertThat(batcher.dropped()).isEqualTo(1);
    batcher.close();
    assertThat(recording.names).containsExactly("a", "b");
  }

  @Test
  void aHandlerThatThrowsLosesThatSpanOnly() throws Exception {
    Recording recording = new Recording();
    SpanHandler failingOnB =
        new SpanHandler() {
          @Override
          public boolean end(TraceContext context, MutableSpan span, Cause cause) {
            if ("b".equals(span.name())) {
              throw new IllegalStateException("b");
            }
            return recording.end(context, span, cause);
          }
        };
    BatchingSpanHandler batcher = new BatchingSpanHandler(failingOnB, LONG, 10);
    end(batcher, "a");
    end(batcher, "b");
    end(batcher, "c");
    batcher.close();
    assertThat(recording.names).containsExactly("a", "c");
  }

  @Test
  void refusesAnIntervalOrCapacityThatIsNotPositive() {
    assertThatThrownBy(() -> new BatchingSpanHandler(new Recording(), Duration.ZERO, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new BatchingSpanHandler(new Recording(), LONG, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void spanBatchingPutsABatcherInFrontOfZipkinsHandlerOnlyAndKeepsTheOrder() throws Exception {
    Recording before = new Recording();
    Recording after = new Recording();
    try (AsyncZipkinSpanHandler zipkin = AsyncZipkinSpanHandler.create(new DiscardingSender());
        SpanBatching batching = new SpanBatching(Duration.ofMillis(100))) {
      Tracing.Builder builder =
          Tracing.newBuilder().addSpanHandler(before).addSpanHandler(zipkin).addSpanHandler(after);
      batching.customize(builder);
      List<SpanHandler> handlers = List.copyOf(builder.spanHandlers());
      assertThat(handlers).hasSize(3);
      assertThat(handlers.get(0)).isSameAs(before);
      assertThat(handlers.get(1)).isInstanceOf(BatchingSpanHandler.class);
      assertThat(handlers.get(2)).isSameAs(after);
      assertThat(batching.batchers()).containsExactly((BatchingSpanHandler) handlers.get(1));
    }
  }

  @Test
  void aZeroIntervalLeavesTheHandlersAsTheyAre() throws Exception {
    try (AsyncZipkinSpanHandler zipkin = AsyncZipkinSpanHandler.create(new DiscardingSender());
        SpanBatching batching = new SpanBatching(Duration.ZERO)) {
      Tracing.Builder builder = Tracing.newBuilder().addSpanHandler(zipkin);
      batching.customize(builder);
      assertThat(builder.spanHandlers()).containsExactly(zipkin);
      assertThat(batching.batchers()).isEmpty();
    }
  }
}
