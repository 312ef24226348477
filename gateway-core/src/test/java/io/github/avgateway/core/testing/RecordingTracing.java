package io.github.avgateway.core.testing;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.github.avgateway.core.trace.MicrometerRequestTracer;
import io.github.avgateway.core.trace.RequestTracer;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real Brave tracer with W3C propagation (as Spring Boot sets it up) that keeps every finished
 * span in memory instead of exporting it: for unit tests of what the gateway traces.
 */
public final class RecordingTracing implements AutoCloseable {

  private final List<MutableSpan> spans = new CopyOnWriteArrayList<>();
  private final Tracing tracing;
  private final RequestTracer tracer;

  private RecordingTracing(boolean sampled) {
    tracing =
        Tracing.newBuilder()
            .localServiceName("av-gateway-test")
            .traceId128Bit(true)
            .sampler(sampled ? Sampler.ALWAYS_SAMPLE : Sampler.NEVER_SAMPLE)
            .propagationFactory(new W3CPropagation())
            .currentTraceContext(ThreadLocalCurrentTraceContext.create())
            .addSpanHandler(
                new SpanHandler() {
                  @Override
                  public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                    spans.add(span);
                    return true;
                  }
                })
            .build();
    BraveTracer bridge =
        new BraveTracer(
            tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()));
    tracer = new MicrometerRequestTracer(bridge, new BravePropagator(tracing));
  }

  /** New traces are sampled. */
  public static RecordingTracing sampled() {
    return new RecordingTracing(true);
  }

  /** New traces are not sampled (a caller's sampled trace still is). */
  public static RecordingTracing unsampled() {
    return new RecordingTracing(false);
  }

  public RequestTracer tracer() {
    return tracer;
  }

  /** Every span finished so far, in the order they finished. */
  public List<MutableSpan> spans() {
    return List.copyOf(spans);
  }

  /** The finished span called {@code name}, if any. */
  public Optional<MutableSpan> span(String name) {
    return spans.stream().filter(s -> name.equals(s.name())).findFirst();
  }

  /** The finished span called {@code name}; fails when there is none. */
  public MutableSpan require(String name) {
    return span(name).orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
  }

  @Override
  public void close() {
    tracing.close();
  }
}
