package io.github.avgateway.core.clamd;

import io.github.avgateway.core.model.EngineVersion;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine and signature version clamd last reported. Starts as {@link EngineVersion#UNKNOWN}; a
 * reply that is not a version leaves the cached value as it was.
 */
final class EngineVersionCache {

  private final AtomicReference<EngineVersion> current =
      new AtomicReference<>(EngineVersion.UNKNOWN);

  /**
   * Parses clamd's {@code VERSION} reply: {@code ClamAV 1.4.6/27451/<date>} gives engine {@code
   * ClamAV 1.4.6} and signature version {@code 27451}; {@code ClamAV 1.4.6} alone (custom
   * signatures only) gives an empty signature version. Anything else is {@link
   * EngineVersion#UNKNOWN}.
   */
  static EngineVersion parse(String reply) {
    if (reply == null || !reply.strip().startsWith("ClamAV ")) {
      return EngineVersion.UNKNOWN;
    }
    String[] parts = reply.strip().split("/", 3);
    String engine = parts[0].strip();
    String signatures = parts.length > 1 ? parts[1].strip() : "";
    if (engine.equals("ClamAV")) {
      return EngineVersion.UNKNOWN;
    }
    return new EngineVersion(engine, signatures.matches("\\d+") ? signatures : "");
  }

  EngineVersion current() {
    return current.get();
  }

  boolean isUnknown() {
    return current.get().equals(EngineVersion.UNKNOWN);
  }

  /** Takes a new {@code VERSION} reply; keeps the old value when it does not parse. */
  void update(String reply) {
    EngineVersion parsed = parse(reply);
    if (!parsed.equals(EngineVersion.UNKNOWN)) {
      current.set(parsed);
    }
  }
}
