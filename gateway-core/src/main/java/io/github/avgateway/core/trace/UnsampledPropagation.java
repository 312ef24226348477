package io.github.avgateway.core.trace;

import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the messages published for an unsampled request carry, written without a span: a {@code
 * traceparent} with the flags 00 (so the services after the gateway keep the caller's decision),
 * the caller's {@code tracestate} when its trace is continued, and the caller's values of the
 * propagation's other fields (W3C {@code baggage}, remote baggage fields) as they came, which is
 * what the propagator writes for a context it only passes on. Only where the propagator writes W3C
 * and no B3 header ({@link #of} is null otherwise): Spring Boot's default, which produces W3C and
 * also reads B3.
 */
final class UnsampledPropagation {

  private static final String[] NOTHING = {};
  private static final String PROBE_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
  private static final String PROBE_SPAN_ID = "b7ad6b7169203331";
  private static final Set<String> TRACE_CONTEXT =
      Set.of(MicrometerRequestTracer.TRACEPARENT, MicrometerRequestTracer.TRACESTATE);
  private static final Set<String> B3 =
      Set.of(
          "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "x-b3-flags");

  private final List<String> passedOn;

  private UnsampledPropagation(List<String> passedOn) {
    this.passedOn = passedOn;
  }

  /**
   * For {@code propagator}: what it writes is found once by letting it write an unsampled context
   * made by {@code tracer}; null unless that is a {@code traceparent} and no B3 header.
   */
  static UnsampledPropagation of(Tracer tracer, Propagator propagator) {
    Map<String, String> written = new HashMap<>();
    try {
      TraceContext probe =
          tracer
              .traceContextBuilder()
              .traceId(PROBE_TRACE_ID)
              .spanId(PROBE_SPAN_ID)
              .sampled(false)
              .build();
      propagator.inject(probe, written, Map::put);
    } catch (RuntimeException e) {
      return null;
    }
    if (!written.containsKey(MicrometerRequestTracer.TRACEPARENT)
        || written.keySet().stream().anyMatch(UnsampledPropagation::isB3)) {
      return null;
    }
    List<String> passedOn = new ArrayList<>(propagator.fields());
    passedOn.removeIf(field -> isB3(field) || TRACE_CONTEXT.contains(field));
    return new UnsampledPropagation(List.copyOf(passedOn));
  }

  private static boolean isB3(String field) {
    return B3.contains(field.toLowerCase(Locale.ROOT));
  }

  /**
   * The trace of an unsampled request: {@code traceId} and the gateway's {@code spanId} in the
   * {@code traceparent} it publishes; the caller's trace when {@code continued}, whose {@code
   * tracestate} is then passed on. The other fields are read from {@code carrier} now, a field it
   * cannot read being absent.
   *
   * <p>{@link RequestTrace#NONE} for a new trace (not {@code continued}) when {@code carrier} holds
   * none of the other fields either: the request came with no context and its trace was not
   * sampled, so nothing is passed on. A {@code traceparent} with the flags 00 would only make the
   * caller's consumer take the gateway's sampling decision for its own under parent-based sampling,
   * and costs the broker a header on every such reply.
   */
  <C> RequestTrace trace(
      String traceId, String spanId, boolean continued, C carrier, Propagator.Getter<C> getter) {
    String[] fields = read(carrier, getter);
    if (!continued && fields.length == 0) {
      return RequestTrace.NONE;
    }
    String state =
        continued
            ? MicrometerRequestTracer.safely(getter, carrier, MicrometerRequestTracer.TRACESTATE)
            : null;
    return new UnsampledRequestTrace(
        Spans.unsampledTraceparent(traceId, spanId), continued ? traceId : null, state, fields);
  }

  /** The fields passed on that {@code carrier} holds, as name, value, name, value… */
  private <C> String[] read(C carrier, Propagator.Getter<C> getter) {
    String[] found = NOTHING;
    int at = 0;
    for (String field : passedOn) {
      String value = MicrometerRequestTracer.safely(getter, carrier, field);
      if (value != null) {
        if (at == found.length) {
          found = Arrays.copyOf(found, at + 2);
        }
        found[at++] = field;
        found[at++] = value;
      }
    }
    return found;
  }
}
