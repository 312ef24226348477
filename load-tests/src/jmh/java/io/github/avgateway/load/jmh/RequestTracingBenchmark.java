package io.github.avgateway.load.jmh;

import brave.Tags;
import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.MutableSpanBytesEncoder;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.trace.Intake;
import io.github.avgateway.core.trace.MicrometerRequestTracer;
import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.core.trace.TraceStep;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What tracing costs the gateway's own request threads per request, as the AMQP front-end drives
 * it: the request's trace started from its headers, made current, the clamd scan recorded, the
 * reply published (its headers written) and confirmed, the history hand-off, the trace finished
 * with the request's history document. {@code off} is tracing off ({@link RequestTracer#NONE});
 * {@code traced} is {@link MicrometerRequestTracer} on Brave as Spring Boot builds it (W3C
 * propagation, {@code Sampler.create(probability)}) for a request that came without trace context,
 * the harness' case, at {@code probability} 0 (every request unsampled), 0.1 (Spring Boot's
 * default) and 1.
 *
 * <p>Every finished span is encoded to Zipkin's JSON v2, as the Zipkin reporter does for each span,
 * here on the request's thread (in the gateway on the reporter's), so the figure holds the gateway
 * JVM's whole work per span but the HTTP post of a batch of them. Not in it: the tracing server's
 * work, and the broker's for the reply's {@code traceparent} header.
 *
 * <p>Pitfalls avoided: the document, the report and the intake are built in setup (no clocks or
 * UUIDs timed but what the tracer reads itself); the reply headers and the encoded bytes are
 * consumed (returned); the sampler counts across invocations as in the gateway, so one in ten
 * invocations is sampled at 0.1 and the average is the per-request figure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequestTracingBenchmark {

  private static final Propagator.Getter<Map<String, Object>> GETTER =
      (headers, name) -> {
        Object value = headers.get(name);
        return value == null ? null : value.toString();
      };
  private static final Propagator.Setter<Map<String, Object>> SETTER = Map::put;
  private static final Duration TOOK = Duration.ofMillis(3);

  @Param({"0.0", "0.1", "1.0"})
  public float probability;

  private Tracing tracing;
  private RequestTracer tracer;
  private final SpanSink sink = new SpanSink();
  private Intake intake;
  private ScanReport report;
  private MessageInfo document;

  @Setup(Level.Trial)
  public void setUp() {
    tracing =
        Tracing.newBuilder()
            .localServiceName("av-gateway-amqp")
            .propagationFactory(new W3CPropagation())
            .sampler(Sampler.create(probability))
            .addSpanHandler(sink)
            .build();
    BraveTracer micrometer =
        new BraveTracer(
            tracing.tracer(),
            new BraveCurrentTraceContext(tracing.currentTraceContext()),
            new BraveBaggageManager());
    tracer = new MicrometerRequestTracer(micrometer, new BravePropagator(tracing));
    intake =
        new Intake("rabbitmq", "av.scan.requests", null, Instant.parse("2026-11-29T14:00:00Z"));
    report = ScanReport.clean(new EngineVersion("ClamAV 1.4.3", "27500"), 3);
    document = Samples.history(false);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    tracing.close();
  }

  @Benchmark
  public Object off() {
    return request(RequestTracer.NONE);
  }

  @Benchmark
  public Object traced() {
    return request(tracer);
  }

  /** The trace calls of one request through the AMQP front-end; returns what was written. */
  private Object request(RequestTracer requestTracer) {
    Map<String, Object> requestHeaders = new HashMap<>();
    RequestTrace trace = requestTracer.start(intake, requestHeaders, GETTER);
    Map<String, Object> replyHeaders = new HashMap<>();
    try (RequestTrace.Scope scope = trace.makeCurrent()) {
      RequestTrace current = RequestTrace.current();
      current.scannedBy("127.0.0.1:3310");
      current.scanned(report, 1024, TOOK);
      TraceStep publish = current.publish("reply", "amq.rabbitmq.reply-to", replyHeaders, SETTER);
      publish.end();
    }
    trace.step("history hand-off").end();
    trace.finish(document);
    return sink.bytes + replyHeaders.size();
  }

  /** Encodes every finished span as the Zipkin reporter does, keeping only the byte count. */
  private static final class SpanSink extends SpanHandler {

    private final MutableSpanBytesEncoder json = MutableSpanBytesEncoder.zipkinJsonV2(Tags.ERROR);
    long bytes;

    @Override
    public boolean end(TraceContext context, MutableSpan span, Cause cause) {
      bytes += json.encode(span).length;
      return true;
    }
  }
}
