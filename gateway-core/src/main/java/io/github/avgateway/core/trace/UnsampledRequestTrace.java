package io.github.avgateway.core.trace;

import io.micrometer.tracing.propagation.Propagator;

/**
 * A request whose trace is not sampled: no span object is made and nothing is recorded; the
 * messages published for it still carry its context ({@link UnsampledPropagation}). Costs one
 * string per request.
 */
final class UnsampledRequestTrace extends UnrecordedTrace {

  private final String traceparent;
  private final String traceId;
  private final String traceState;
  private final String[] passedOn;

  /**
   * @param traceparent written into each message published for the request
   * @param traceId the caller's trace id when its trace is continued, else null
   * @param traceState the caller's {@code tracestate}, or null
   * @param passedOn other propagation fields to write, as name, value, name, value…
   */
  UnsampledRequestTrace(String traceparent, String traceId, String traceState, String[] passedOn) {
    this.traceparent = traceparent;
    this.traceId = traceId;
    this.traceState = traceState;
    this.passedOn = passedOn;
  }

  @Override
  public Scope makeCurrent() {
    return CurrentTrace.enter(this);
  }

  @Override
  public String traceId() {
    return traceId;
  }

  @Override
  public <C> TraceStep publish(
      String name, String destination, C carrier, Propagator.Setter<C> setter) {
    setter.set(carrier, MicrometerRequestTracer.TRACEPARENT, traceparent);
    if (traceState != null) {
      setter.set(carrier, MicrometerRequestTracer.TRACESTATE, traceState);
    }
    for (int i = 0; i < passedOn.length; i += 2) {
      setter.set(carrier, passedOn[i], passedOn[i + 1]);
    }
    return TraceStep.NONE;
  }
}
