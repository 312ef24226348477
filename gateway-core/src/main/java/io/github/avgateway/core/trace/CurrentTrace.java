package io.github.avgateway.core.trace;

/** The trace current on each thread. */
final class CurrentTrace {

  private static final ThreadLocal<RequestTrace> CURRENT = new ThreadLocal<>();

  private CurrentTrace() {}

  static RequestTrace get() {
    RequestTrace trace = CURRENT.get();
    return trace == null ? RequestTrace.NONE : trace;
  }

  /** Makes {@code trace} current; the scope puts back the one before. */
  static RequestTrace.Scope enter(RequestTrace trace) {
    RequestTrace before = CURRENT.get();
    CURRENT.set(trace);
    return () -> CURRENT.set(before);
  }
}
