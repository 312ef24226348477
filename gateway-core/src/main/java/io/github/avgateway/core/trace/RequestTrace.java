package io.github.avgateway.core.trace;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanReport;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;

/**
 * The trace of one request: its span, from the broker's timestamp (or its receipt) until its batch
 * was committed or acknowledged. Used by the thread handling the request; {@link #makeCurrent()}
 * lets the scan pipeline and the publishers below find it without being handed it.
 */
public interface RequestTrace {

  /** No trace: every method does nothing, {@link #traceId()} is null. */
  RequestTrace NONE = NoRequestTrace.INSTANCE;

  /** The trace current on this thread, or {@link #NONE}. */
  static RequestTrace current() {
    return CurrentTrace.get();
  }

  /** Makes this trace current on this thread until the scope is closed. */
  Scope makeCurrent();

  /**
   * Whether this request's spans are recorded (sampled): when false, {@link #step}, {@link
   * #scanned}, {@link #finish} and {@link #fail} do nothing and need not be called, and {@link
   * #publish} only writes the context.
   */
  boolean recorded();

  /**
   * The trace id to record in history: the caller's when it sent a valid {@code traceparent}, the
   * new trace's when it was sampled; null otherwise.
   */
  String traceId();

  /**
   * Starts the publish of a message to {@code destination} (a producer span called {@code name})
   * and writes its context into the message's {@code traceparent} (and the caller's {@code
   * tracestate}) through {@code setter}, replacing what the request carried.
   */
  <C> TraceStep publish(String name, String destination, C carrier, Propagator.Setter<C> setter);

  /** Starts a step called {@code name} now. */
  TraceStep step(String name);

  /** The clamd endpoint the current scan went to (a tag of the scan span). */
  void scannedBy(String endpoint);

  /** Records the scan that just ended: took {@code took}, sent {@code bytes}. */
  void scanned(ScanReport report, long bytes, Duration took);

  /** The request is done: its outcome in {@code document}; ends the span. */
  void finish(MessageInfo document);

  /** The request goes back to the broker (rolled back or requeued) for {@code why}; ends. */
  void fail(String why);

  /** Closing a scope makes the trace that was current before it current again. */
  interface Scope extends AutoCloseable {

    @Override
    void close();
  }
}
