package io.github.avgateway.core.trace;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
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
 *
 * <p>A request that is not sampled costs next to nothing where W3C is written (Spring Boot's
 * default): a caller's {@code traceparent} whose flags say not sampled makes no span at all, a new
 * trace the sampler turns down makes only the tracer's no-op span, and neither makes child spans.
 * The publishes of a caller's unsampled trace carry its context all the same ({@link
 * UnsampledPropagation}); a request that came with no context and was not sampled gets {@link
 * RequestTrace#NONE}, so its reply carries no trace header. With another propagation an unsampled
 * request gets the tracer's no-op spans and its propagator writes them.
 */
public final class MicrometerRequestTracer implements RequestTracer {

  static final String TRACEPARENT = "traceparent";
  static final String TRACESTATE = "tracestate";
  private static final long OLDEST_STAMP_SECONDS = Duration.ofDays(7).toSeconds();

  private final Tracer tracer;
  private final Propagator propagator;
  private final UnsampledPropagation unsampled;

  public MicrometerRequestTracer(Tracer tracer, Propagator propagator) {
    this.tracer = Objects.requireNonNull(tracer, "tracer");
    this.propagator = Objects.requireNonNull(propagator, "propagator");
    this.unsampled = UnsampledPropagation.of(tracer, propagator);
  }

  @Override
  public <C> RequestTrace start(Intake intake, C carrier, Propagator.Getter<C> getter) {
    ReadOnce<C> headers = new ReadOnce<>(carrier, getter);
    String traceparent = headers.get(TRACEPARENT);
    String incoming = Spans.traceIdOf(traceparent);
    if (unsampled != null && incoming != null && !Spans.sampled(traceparent)) {
      return unsampled.trace(incoming, Spans.newSpanId(), true, carrier, headers);
    }
    boolean malformed = traceparent != null && incoming == null;
    Instant received = intake.receivedAt();
    Instant stamp = plausible(intake.brokerTime(), received) ? intake.brokerTime() : received;
    Span span =
        propagator
            .extract(carrier, malformed ? none() : headers)
            .name("scan request")
            .kind(Span.Kind.CONSUMER)
            .startTimestamp(Spans.micros(stamp), Spans.MICROS)
            .start();
    TraceContext context = span.context();
    boolean continued = incoming != null && incoming.equals(context.traceId());
    if (span.isNoop() && unsampled != null) {
      C passedOn = malformed ? null : carrier;
      return unsampled.trace(context.traceId(), context.spanId(), continued, passedOn, headers);
    }
    span.tag("messaging.system", intake.system());
    span.tag("messaging.destination.name", intake.queue());
    queueWait(span, stamp, received);
    String state = continued ? headers.get(TRACESTATE) : null;
    return new MicrometerRequestTrace(tracer, propagator, span, continued, state);
  }

  /** A {@code queue wait} child of {@code span} from the broker's stamp to receipt, if before. */
  private void queueWait(Span span, Instant stamp, Instant received) {
    if (span.isNoop() || !stamp.isBefore(received)) {
      return;
    }
    tracer
        .spanBuilder()
        .setParent(span.context())
        .name("queue wait")
        .startTimestamp(Spans.micros(stamp), Spans.MICROS)
        .start()
        .end(Spans.micros(received), Spans.MICROS);
  }

  /** Reads nothing: the request's trace parent is malformed, so a new trace starts. */
  private static <C> Propagator.Getter<C> none() {
    return (carrier, name) -> null;
  }

  private static boolean plausible(Instant stamp, Instant received) {
    // In whole seconds: no Instant is made for the bound on every request.
    return stamp != null
        && !stamp.isAfter(received)
        && received.getEpochSecond() - stamp.getEpochSecond() < OLDEST_STAMP_SECONDS;
  }

  /** {@code getter}'s value of {@code name} in {@code carrier}; null when it cannot be read. */
  static <C> String safely(Propagator.Getter<C> getter, C carrier, String name) {
    if (carrier == null) {
      return null;
    }
    try {
      return getter.get(carrier, name);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
