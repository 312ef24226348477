package io.github.avgateway.core.trace;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * {@link RequestTracer} on Micrometer Tracing: the request span is a consumer span, child of the
 * caller's context when its {@code traceparent} is valid (the propagator ignores a malformed one,
 * and a new trace starts), starting at the broker's timestamp when there is a plausible one (not
 * after receipt, not more than a week before it), with a {@code queue wait} child up to receipt.
 */
public final class MicrometerRequestTracer implements RequestTracer {

  static final String TRACEPARENT = "traceparent";
  static final String TRACESTATE = "tracestate";
  private static final Duration OLDEST_STAMP = Duration.ofDays(7);

  private final Tracer tracer;
  private final Propagator propagator;

  public MicrometerRequestTracer(Tracer tracer, Propagator propagator) {
    this.tracer = Objects.requireNonNull(tracer, "tracer");
    this.propagator = Objects.requireNonNull(propagator, "propagator");
  }

  @Override
  public <C> RequestTrace start(Intake intake, C carrier, Propagator.Getter<C> getter) {
    Instant received = intake.receivedAt();
    Instant stamp = plausible(intake.brokerTime(), received) ? intake.brokerTime() : received;
    String traceparent = safely(getter, carrier, TRACEPARENT);
    String incoming = Spans.traceIdOf(traceparent);
    boolean malformed = traceparent != null && incoming == null;
    Span span =
        propagator
            .extract(carrier, malformed ? none() : safe(getter))
            .name("scan request")
            .kind(Span.Kind.CONSUMER)
            .tag("messaging.system", intake.system())
            .tag("messaging.destination.name", intake.queue())
            .startTimestamp(Spans.micros(stamp), Spans.MICROS)
            .start();
    if (stamp.isBefore(received)) {
      tracer
          .spanBuilder()
          .setParent(span.context())
          .name("queue wait")
          .startTimestamp(Spans.micros(stamp), Spans.MICROS)
          .start()
          .end(Spans.micros(received), Spans.MICROS);
    }
    boolean continued = incoming != null && incoming.equals(span.context().traceId());
    String state = continued ? safely(getter, carrier, TRACESTATE) : null;
    return new MicrometerRequestTrace(tracer, propagator, span, continued, state);
  }

  /** Reads nothing: the request's trace parent is missing or malformed, so a new trace starts. */
  private static <C> Propagator.Getter<C> none() {
    return (carrier, name) -> null;
  }

  /** Reads as {@code getter} does, a header it cannot read being absent. */
  private static <C> Propagator.Getter<C> safe(Propagator.Getter<C> getter) {
    return (carrier, name) -> safely(getter, carrier, name);
  }

  private static boolean plausible(Instant stamp, Instant received) {
    return stamp != null && !stamp.isAfter(received) && stamp.isAfter(received.minus(OLDEST_STAMP));
  }

  private static <C> String safely(Propagator.Getter<C> getter, C carrier, String name) {
    try {
      return getter.get(carrier, name);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
