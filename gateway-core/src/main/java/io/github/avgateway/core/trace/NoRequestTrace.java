package io.github.avgateway.core.trace;

import io.micrometer.tracing.propagation.Propagator;

/** {@link RequestTrace#NONE}: records nothing, writes no header, allocates nothing. */
final class NoRequestTrace extends UnrecordedTrace {

  static final NoRequestTrace INSTANCE = new NoRequestTrace();
  private static final Scope NO_SCOPE = () -> {};

  private NoRequestTrace() {}

  @Override
  public Scope makeCurrent() {
    return NO_SCOPE;
  }

  @Override
  public String traceId() {
    return null;
  }

  @Override
  public <C> TraceStep publish(
      String name, String destination, C carrier, Propagator.Setter<C> setter) {
    return TraceStep.NONE;
  }
}
