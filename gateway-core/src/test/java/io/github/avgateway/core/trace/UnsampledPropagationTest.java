package io.github.avgateway.core.trace;

import static io.github.avgateway.core.trace.MicrometerRequestTracerTest.CALLER_TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnsampledPropagationTest {

  private static final Propagator.Getter<Map<String, String>> GET = Map::get;
  private static final Propagator.Setter<Map<String, String>> SET = Map::put;

  @Test
  void theCallersBaggageAndOtherFieldsArePassedOnAsTheyCame() {
    UnsampledPropagation propagation =
        UnsampledPropagation.of(
            fields(List.of("traceparent", "tracestate", "baggage", "x-tenant", "x-absent")));
    Map<String, String> request =
        Map.of("baggage", "user=1,region=eu", "x-tenant", "acme", "other", "no");
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
        UnsampledPropagation.of(fields(List.of("traceparent", "tracestate", "baggage")));
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
  void onlyAW3cPropagationIsWrittenWithoutSpans() {
    assertThat(UnsampledPropagation.of(fields(List.of("traceparent", "tracestate")))).isNotNull();
    assertThat(UnsampledPropagation.of(fields(List.of("traceparent", "tracestate", "b3"))))
        .isNull();
    assertThat(UnsampledPropagation.of(fields(List.of("X-B3-TraceId", "traceparent")))).isNull();
    assertThat(UnsampledPropagation.of(fields(List.of("uber-trace-id")))).isNull();
  }

  /** A propagator that only names its fields, which is all that is asked of it here. */
  private static Propagator fields(List<String> fields) {
    return new Propagator() {
      @Override
      public List<String> fields() {
        return fields;
      }

      @Override
      public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
        throw new UnsupportedOperationException("not used for an unsampled request");
      }

      @Override
      public <C> Span.Builder extract(C carrier, Getter<C> getter) {
        throw new UnsupportedOperationException("not used for an unsampled request");
      }
    };
  }
}
