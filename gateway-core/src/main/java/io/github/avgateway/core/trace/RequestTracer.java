package io.github.avgateway.core.trace;

import io.micrometer.tracing.propagation.Propagator;

/** Starts the trace of each request a front-end takes. Thread-safe. */
public interface RequestTracer {

  /** Tracing off: every request gets {@link RequestTrace#NONE}, nothing is read or written. */
  RequestTracer NONE =
      new RequestTracer() {
        @Override
        public <C> RequestTrace start(Intake intake, C carrier, Propagator.Getter<C> getter) {
          return RequestTrace.NONE;
        }
      };

  /**
   * The trace of a request whose headers are {@code carrier}: it continues the trace of a valid
   * {@code traceparent} (and keeps its {@code tracestate}); without one, or with a malformed one,
   * it starts a new trace, sampled as the tracer's sampler says. Never throws for bad headers.
   */
  <C> RequestTrace start(Intake intake, C carrier, Propagator.Getter<C> getter);
}
