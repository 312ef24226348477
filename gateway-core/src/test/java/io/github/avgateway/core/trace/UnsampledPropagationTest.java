package io.github.avgateway.core.trace;

import static io.github.avgateway.core.trace.MicrometerRequestTracerTest.CALLER_TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import brave.Tracing;
import brave.propagation.B3Propagation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnsampledPropagationTest {

  private static final Propagator.Getter<Map<String, String>> GET = Map::get;
  private static final Propagator.Setter<Map<String, String>> SET = Map::put;

  @Test
  void theCallersBaggageAndOtherFieldsArePassedOnAsTheyCameButNotTheB3ItOnlyReads() {
    UnsampledPropagation propagation =
        UnsampledPropagation.of(
            Tracer.NOOP,
            propagator(
                List.of("traceparent", "tracestate", "baggage", "x-tenant", "x-absent", "b3"),
                List.of("traceparent", "tracestate")));
    Map<String, String> request =
        Map.of("baggage", "user=1,region=eu", "x-tenant", "acme", "other", "no", "b3", "1");
    Map<String, String> reply = new HashMap<>();

    propagation
        .trace(CALLER_TRACE, "1111111111111111", true, request, GET)
        .publish("reply", "q", reply, SET);

    assertThat(reply)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "traceparent", "00-" + CALLER_TRACE + "-1111111111111111-00",
                "baggage", "user=1,region=eu",
                "x-tenant", "acme"));
  }

  @Test
  void aFieldTheCarrierCannotReadIsLeftOut() {
    UnsampledPropagation propagation =
        UnsampledPropagation.of(Tracer.NOOP, writing(List.of("traceparent", "baggage")));
    Propagator.Getter<Map<String, String>> failing =
        (carrier, name) -> {
          throw new IllegalStateException("unreadable " + name);
        };
    Map<String, String> reply = new HashMap<>();

    RequestTrace trace =
        propagation.trace(CALLER_TRACE, "1111111111111111", true, Map.of(), failing);
    trace.publish("reply", "q", reply, SET);

    assertThat(trace.traceId()).isEqualTo(CALLER_TRACE);
    assertThat(reply).containsOnlyKeys("traceparent");
  }

  @Test
  void aNewTraceWithNothingToPassOnIsNoTraceAndWritesNothing() {
    UnsampledPropagation propagation =
        UnsampledPropagation.of(Tracer.NOOP, writing(List.of("traceparent", "baggage")));
    Map<String, String> reply = new HashMap<>();

    RequestTrace fresh =
        propagation.trace(CALLER_TRACE, "1111111111111111", false, Map.of("other", "no"), GET);
    RequestTrace malformed = propagation.trace(CALLER_TRACE, "1111111111111111", false, null, GET);
    fresh.publish("reply", "q", reply, SET);

    assertThat(fresh).isSameAs(RequestTrace.NONE);
    assertThat(malformed).isSameAs(RequestTrace.NONE);
    assertThat(reply).isEmpty();
  }

  @Test
  void aNewTraceWithTheCallersBaggagePassesItOnUnderTheNewTraceparent() {
    UnsampledPropagation propagation =
        UnsampledPropagation.of(Tracer.NOOP, writing(List.of("traceparent", "baggage")));
    Map<String, String> reply = new HashMap<>();

    RequestTrace trace =
        propagation.trace(
            CALLER_TRACE, "1111111111111111", false, Map.of("baggage", "user=1"), GET);
    trace.publish("reply", "q", reply, SET);

    assertThat(trace).isNotSameAs(RequestTrace.NONE);
    assertThat(trace.traceId()).as("a new unsampled trace is not recorded in history").isNull();
    assertThat(reply)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "traceparent", "00-" + CALLER_TRACE + "-1111111111111111-00", "baggage", "user=1"));
  }

  @Test
  void onlyAPropagatorThatWritesW3cAndNoB3IsWrittenWithoutSpans() {
    assertThat(UnsampledPropagation.of(Tracer.NOOP, writing(List.of("traceparent")))).isNotNull();
    assertThat(UnsampledPropagation.of(Tracer.NOOP, writing(List.of("traceparent", "b3"))))
        .isNull();
    assertThat(UnsampledPropagation.of(Tracer.NOOP, writing(List.of("X-B3-TraceId")))).isNull();
    assertThat(UnsampledPropagation.of(Tracer.NOOP, writing(List.of("uber-trace-id")))).isNull();
  }

  @Test
  void braveWritingW3cQualifiesAndBraveWritingB3DoesNot() {
    try (Tracing w3c = Tracing.newBuilder().propagationFactory(new W3CPropagation()).build();
        Tracing b3 = Tracing.newBuilder().propagationFactory(B3Propagation.FACTORY).build()) {
      assertThat(UnsampledPropagation.of(tracer(w3c), new BravePropagator(w3c))).isNotNull();
      assertThat(UnsampledPropagation.of(tracer(b3), new BravePropagator(b3))).isNull();
    }
  }

  private static Tracer tracer(Tracing tracing) {
    return new BraveTracer(
        tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()));
  }

  private static Propagator writing(List<String> fields) {
    return propagator(fields, fields);
  }

  /**
   * A propagator whose fields are {@code fields} and which writes {@code writes} for any context;
   * only that is asked of it here.
   */
  private static Propagator propagator(List<String> fields, List<String> writes) {
    return new Propagator() {
      @Override
      public List<String> fields() {
        return fields;
      }

      @Override
      public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
        writes.forEach(field -> setter.set(carrier, field, "written"));
      }

      @Override
      public <C> Span.Builder extract(C carrier, Getter<C> getter) {
        throw new UnsupportedOperationException("not used for an unsampled request");
      }
    };
  }
}
