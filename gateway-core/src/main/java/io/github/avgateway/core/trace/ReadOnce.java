package io.github.avgateway.core.trace;

import io.micrometer.tracing.propagation.Propagator;

/**
 * The headers of one request as a getter that reads each name from the carrier at most once, a
 * header it cannot read being absent. Starting a trace asks for the same names several times:
 * Spring Boot's default propagation tries W3C, then B3 in its single and its multi form (each
 * asking for {@code b3}, {@code X-B3-TraceId}, {@code X-B3-Sampled} and {@code X-B3-Flags}), and
 * the gateway reads {@code traceparent} and {@code tracestate} itself; on JMS each read is a
 * property lookup in the message. Used by one thread, for one request; a carrier other than its own
 * is read through as it is.
 */
final class ReadOnce<C> implements Propagator.Getter<C> {

  /** Names remembered; Spring Boot's default asks for five, with baggage fields a few more. */
  private static final int CAPACITY = 16;

  private final C carrier;
  private final Propagator.Getter<C> getter;
  private final String[] names = new String[CAPACITY];
  private final String[] values = new String[CAPACITY];
  private int size;

  ReadOnce(C carrier, Propagator.Getter<C> getter) {
    this.carrier = carrier;
    this.getter = getter;
  }

  /** The value of {@code name} in this request's headers, or null. */
  String get(String name) {
    for (int i = 0; i < size; i++) {
      if (names[i].equals(name)) {
        return values[i];
      }
    }
    String value = MicrometerRequestTracer.safely(getter, carrier, name);
    if (size < CAPACITY) {
      names[size] = name;
      values[size++] = value;
    }
    return value;
  }

  @Override
  public String get(C from, String name) {
    return from == carrier ? get(name) : MicrometerRequestTracer.safely(getter, from, name);
  }
}
