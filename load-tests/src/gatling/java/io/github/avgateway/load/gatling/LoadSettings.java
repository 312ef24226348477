package io.github.avgateway.load.gatling;

import io.github.avgateway.load.Payloads;
import java.time.Duration;

/**
 * The load of a simulation, from system properties (pass them to Maven with {@code -D}):
 *
 * <ul>
 *   <li>{@code size} — payload size of the clean files, e.g. {@code 1k}, {@code 64k}, {@code 1m}
 *       (default 1k); the infected ones are the 68-byte EICAR file;
 *   <li>{@code rate} — new requests per second (default 50);
 *   <li>{@code duration} — seconds of load (default 60);
 *   <li>{@code eicarPercent} — share of EICAR requests in the mix (default 10);
 *   <li>{@code maxFailedPercent} — assertion: failed requests at most this (default 0);
 *   <li>{@code p99Millis} — assertion: 99th percentile of response time at most this (default 20).
 * </ul>
 */
record LoadSettings(
    int size,
    double rate,
    Duration duration,
    double eicarPercent,
    double maxFailedPercent,
    int p99Millis) {

  static LoadSettings fromSystemProperties() {
    return new LoadSettings(
        Payloads.parseSize(System.getProperty("size", "1k")),
        Double.parseDouble(System.getProperty("rate", "50")),
        Duration.ofSeconds(Long.parseLong(System.getProperty("duration", "60"))),
        Double.parseDouble(System.getProperty("eicarPercent", "10")),
        Double.parseDouble(System.getProperty("maxFailedPercent", "0")),
        Integer.parseInt(System.getProperty("p99Millis", "20")));
  }

  /** A clean payload: pseudo-random bytes of {@link #size()}. */
  byte[] clean() {
    return Payloads.random(size, 42);
  }
}
