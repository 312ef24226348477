package io.github.avgateway.core.trace;

import static io.github.avgateway.core.trace.MicrometerRequestTracerTest.CALLER_SPAN;
import static io.github.avgateway.core.trace.MicrometerRequestTracerTest.CALLER_TRACE;
import static io.github.avgateway.core.trace.MicrometerRequestTracerTest.document;
import static io.github.avgateway.core.trace.MicrometerRequestTracerTest.intake;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.testing.RecordingTracing;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A request that is not sampled records no span and makes no child span; the publishes of a
 * caller's unsampled trace still carry a {@code traceparent} (flags 00) and what the caller's
 * context held, a request that came without context has no trace at all.
 */
class UnsampledRequestTraceTest {

  private static final Propagator.Getter<Map<String, String>> GET = Map::get;
  private static final Propagator.Setter<Map<String, String>> SET = Map::put;
  private static final String UNSAMPLED_PARENT = "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-00";

  @Test
  void aRequestWithoutContextWhoseNewTraceTheSamplerTurnsDownHasNoTraceAndItsReplyNoHeader() {
    try (RecordingTracing tracing = RecordingTracing.unsampled()) {
      Instant received = Instant.now();
      Intake queued =
          new Intake("rabbitmq", "av.scan.requests", received.minusMillis(250), received);
      RequestTrace trace = tracing.tracer().start(queued, Map.of(), GET);
      Map<String, String> reply = everyStepOf(trace);

      assertThat(trace).isSameAs(RequestTrace.NONE);
      assertThat(trace.recorded()).isFalse();
      assertThat(trace.traceId()).isNull();
      assertThat(tracing.spans()).isEmpty();
      assertThat(reply).isEmpty();
    }
  }

  @Test
  void aCallersUnsampledTraceIsContinuedWithoutSpansEvenWhereNewTracesAreSampled() {
    try (RecordingTracing tracing = RecordingTracing.sampled()) {
      Map<String, String> request =
          Map.of("traceparent", UNSAMPLED_PARENT, "tracestate", "caller=abc");
      RequestTrace trace = tracing.tracer().start(intake(null), request, GET);
      Map<String, String> reply = everyStepOf(trace);

      assertThat(trace.recorded()).isFalse();
      assertThat(trace.traceId()).as("history records the caller's trace").isEqualTo(CALLER_TRACE);
      assertThat(tracing.spans()).isEmpty();
      assertThat(reply.get("traceparent"))
          .matches("00-" + CALLER_TRACE + "-[0-9a-f]{16}-00")
          .doesNotContain(CALLER_SPAN);
      assertThat(reply.get("tracestate")).isEqualTo("caller=abc");
    }
  }

  @Test
  void aMalformedTraceparentWhereTracesAreNotSampledPassesNothingOfTheCallersOn() {
    try (RecordingTracing tracing = RecordingTracing.unsampled()) {
      Map<String, String> request =
          Map.of("traceparent", "00-" + CALLER_TRACE + "-xyz-00", "tracestate", "caller=abc");
      RequestTrace trace = tracing.tracer().start(intake(null), request, GET);
      Map<String, String> reply = everyStepOf(trace);

      assertThat(trace).isSameAs(RequestTrace.NONE);
      assertThat(trace.traceId()).isNull();
      assertThat(tracing.spans()).isEmpty();
      assertThat(reply).as("a new trace that is not sampled has nothing to pass on").isEmpty();
    }
  }

  @Test
  void eachRequestOfACallersUnsampledTraceHasItsOwnSpanId() {
    try (RecordingTracing tracing = RecordingTracing.unsampled()) {
      Map<String, String> request = Map.of("traceparent", UNSAMPLED_PARENT);
      Map<String, String> first = everyStepOf(tracing.tracer().start(intake(null), request, GET));
      Map<String, String> second = everyStepOf(tracing.tracer().start(intake(null), request, GET));

      assertThat(first.get("traceparent").substring(36, 52))
          .isNotEqualTo(second.get("traceparent").substring(36, 52))
          .isNotEqualTo(CALLER_SPAN);
    }
  }

  @Test
  void theFlagsOfATraceparentSaySampledByTheirLowestBit() {
    String base = "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-";
    assertThat(Spans.sampled(base + "01")).isTrue();
    assertThat(Spans.sampled(base + "03")).isTrue();
    assertThat(Spans.sampled(base + "00")).isFalse();
    assertThat(Spans.sampled(base + "02")).isFalse();
    assertThat(List.of(Spans.newSpanId(), Spans.newSpanId()))
        .allSatisfy(id -> assertThat(id).matches("[0-9a-f]{16}").isNotEqualTo("0".repeat(16)))
        .doesNotHaveDuplicates();
  }

  @Test
  void aNestedTraceGivesTheOuterOneBackAndTheOutermostLeavesNone() {
    try (RecordingTracing tracing = RecordingTracing.unsampled()) {
      Map<String, String> request = Map.of("traceparent", UNSAMPLED_PARENT);
      RequestTrace outer = tracing.tracer().start(intake(null), request, GET);
      RequestTrace inner = tracing.tracer().start(intake(null), request, GET);
      try (RequestTrace.Scope outerScope = outer.makeCurrent()) {
        try (RequestTrace.Scope innerScope = inner.makeCurrent()) {
          assertThat(RequestTrace.current()).isSameAs(inner);
        }
        assertThat(RequestTrace.current()).isSameAs(outer);
      }
      assertThat(RequestTrace.current()).isSameAs(RequestTrace.NONE);
    }
  }

  /** Runs a request through every call a front-end makes; returns what its reply carries. */
  private static Map<String, String> everyStepOf(RequestTrace trace) {
    Map<String, String> reply = new HashMap<>();
    try (RequestTrace.Scope scope = trace.makeCurrent()) {
      assertThat(RequestTrace.current()).isSameAs(trace);
      RequestTrace.current().scannedBy("127.0.0.1:3310");
      RequestTrace.current()
          .scanned(ScanReport.clean(EngineVersion.UNKNOWN, 1), 68, Duration.ofMillis(1));
      assertThat(RequestTrace.current().publish("reply", "av.reply.x", reply, SET))
          .isSameAs(TraceStep.NONE);
      assertThat(trace.step("history hand-off")).isSameAs(TraceStep.NONE);
    }
    assertThat(RequestTrace.current()).isSameAs(RequestTrace.NONE);
    trace.finish(document(Verdict.CLEAN));
    trace.fail("requeued");
    return reply;
  }
}
