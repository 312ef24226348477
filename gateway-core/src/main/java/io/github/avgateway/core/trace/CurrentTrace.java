package io.github.avgateway.core.trace;

/** The trace current on each thread. */
final class CurrentTrace {

  private static final ThreadLocal<RequestTrace> CURRENT = new ThreadLocal<>();
  private static final RequestTrace.Scope CLEAR = () -> CURRENT.set(null);

  private CurrentTrace() {}

  static RequestTrace get() {
    RequestTrace trace = CURRENT.get();
    return trace == null ? RequestTrace.NONE : trace;
  }

  /**
   * Makes {@code trace} current; the scope puts back the one before (on a front-end's thread there
   * is none, and the scope is then a shared one that allocates nothing).
   */
  static RequestTrace.Scope enter(RequestTrace trace) {
    RequestTrace before = CURRENT.get();
    CURRENT.set(trace);
    return before == null ? CLEAR : () -> CURRENT.set(before);
  }
}
