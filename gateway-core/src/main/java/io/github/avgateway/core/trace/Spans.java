package io.github.avgateway.core.trace;

import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** Small helpers for spans: timestamps in microseconds, the trace id of a {@code traceparent}. */
final class Spans {

  static final TimeUnit MICROS = TimeUnit.MICROSECONDS;
  private static final int TRACEPARENT_LENGTH = 55;
  private static final int FLAGS_AT = 53;
  private static final HexFormat HEX = HexFormat.of();

  private Spans() {}

  static long micros(Instant instant) {
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
  }

  static long nowMicros() {
    return micros(Instant.now());
  }

  /**
   * Whether {@code traceparent} is a valid W3C trace parent: {@code 00-<32 hex>-<16 hex>-<2 hex>}
   * in lower case, neither id all zeros (a later version may append fields after a dash; version
   * {@code ff} is invalid). Checked here rather than left to the propagator, some of which accept a
   * header without its flags.
   */
  static boolean valid(String traceparent) {
    if (traceparent == null || traceparent.length() < TRACEPARENT_LENGTH) {
      return false;
    }
    String version = traceparent.substring(0, 2);
    boolean exact = traceparent.length() == TRACEPARENT_LENGTH;
    return hex(version, false)
        && !version.equals("ff")
        && (exact || (!version.equals("00") && traceparent.charAt(TRACEPARENT_LENGTH) == '-'))
        && traceparent.charAt(2) == '-'
        && traceparent.charAt(35) == '-'
        && traceparent.charAt(52) == '-'
        && hex(traceparent.substring(3, 35), true)
        && hex(traceparent.substring(36, 52), true)
        && hex(traceparent.substring(53, 55), false);
  }

  /** The trace id of a {@link #valid} {@code traceparent}, else null. */
  static String traceIdOf(String traceparent) {
    return valid(traceparent) ? traceparent.substring(3, 35) : null;
  }

  /**
   * Whether the flags of a {@link #valid} {@code traceparent} say its caller sampled the trace (bit
   * 0 of the flags, the W3C {@code sampled} flag).
   */
  static boolean sampled(String traceparent) {
    return (HexFormat.fromHexDigit(traceparent.charAt(FLAGS_AT + 1)) & 1) == 1;
  }

  /** A new span id: 16 lower-case hex digits, never all zeros. */
  static String newSpanId() {
    long id;
    do {
      id = ThreadLocalRandom.current().nextLong();
    } while (id == 0);
    return HEX.toHexDigits(id);
  }

  /** A W3C {@code traceparent} of version 00 whose flags say not sampled. */
  static String unsampledTraceparent(String traceId, String spanId) {
    return "00-" + traceId + "-" + spanId + "-00";
  }

  private static boolean hex(String value, boolean nonZero) {
    boolean sawNonZero = false;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
      sawNonZero |= c != '0';
    }
    return sawNonZero || !nonZero;
  }
}
