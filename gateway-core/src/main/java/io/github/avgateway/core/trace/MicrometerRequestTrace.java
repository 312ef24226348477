package io.github.avgateway.core.trace;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanReport;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;

/**
 * One request's span and its children. Tags say what an operator asks (verdict, size, clamd
 * endpoint, disposition, reasons); never the file name, the client or the payload.
 */
final class MicrometerRequestTrace implements RequestTrace {

  private final Tracer tracer;
  private final Propagator propagator;
  private final Span span;
  private final boolean continued;
  private final String traceState;
  private String endpoint;

  MicrometerRequestTrace(
      Tracer tracer, Propagator propagator, Span span, boolean continued, String traceState) {
    this.tracer = tracer;
    this.propagator = propagator;
    this.span = span;
    this.continued = continued;
    this.traceState = traceState;
  }

  @Override
  public Scope makeCurrent() {
    return CurrentTrace.enter(this);
  }

  @Override
  public boolean recorded() {
    return !span.isNoop();
  }

  @Override
  public String traceId() {
    return continued || !span.isNoop() ? span.context().traceId() : null;
  }

  @Override
  public <C> TraceStep publish(
      String name, String destination, C carrier, Propagator.Setter<C> setter) {
    Span child =
        child(name).kind(Span.Kind.PRODUCER).tag("messaging.destination.name", destination).start();
    boolean[] stateWritten = {false};
    propagator.inject(
        child.context(),
        carrier,
        (c, key, value) -> {
          stateWritten[0] |= MicrometerRequestTracer.TRACESTATE.equals(key);
          setter.set(c, key, value);
        });
    if (!stateWritten[0] && traceState != null) {
      setter.set(carrier, MicrometerRequestTracer.TRACESTATE, traceState);
    }
    return new SpanStep(child);
  }

  @Override
  public TraceStep step(String name) {
    return new SpanStep(child(name).start());
  }

  @Override
  public void scannedBy(String endpoint) {
    this.endpoint = endpoint;
  }

  @Override
  public void scanned(ScanReport report, long bytes, Duration took) {
    long end = Spans.nowMicros();
    Span scan =
        child("clamd scan")
            .kind(Span.Kind.CLIENT)
            .tag("av.verdict", report.verdict().name())
            .tag("av.scan.bytes", Long.toString(bytes))
            .startTimestamp(end - took.toNanos() / 1_000, Spans.MICROS)
            .start();
    if (endpoint != null) {
      scan.tag("av.clamd.endpoint", endpoint);
    }
    if (report.reason() != null) {
      scan.tag("av.reason", report.reason().name());
    }
    if (!report.signatures().isEmpty()) {
      scan.tag("av.signature", report.signatures().getFirst());
    }
    scan.end(end, Spans.MICROS);
    endpoint = null;
  }

  @Override
  public void finish(MessageInfo document) {
    span.tag("av.verdict", document.verdict().name());
    span.tag("av.disposition", document.disposition().name());
    span.tag("av.size.bytes", Long.toString(document.sizeBytes()));
    if (document.reason() != null) {
      span.tag("av.reason", document.reason().name());
    }
    if (document.deadLetterReason() != null) {
      span.tag("av.dead-letter.reason", document.deadLetterReason().name());
    }
    if (document.cached()) {
      span.tag("av.cached", "true");
    }
    span.end();
  }

  @Override
  public void fail(String why) {
    span.tag("error", why);
    span.end();
  }

  private Span.Builder child(String name) {
    return tracer.spanBuilder().setParent(span.context()).name(name);
  }

  /** A step on a span of its own. */
  private record SpanStep(Span span) implements TraceStep {

    @Override
    public void end() {
      span.end();
    }

    @Override
    public void fail(String why) {
      span.tag("error", why);
      span.end();
    }
  }
}
