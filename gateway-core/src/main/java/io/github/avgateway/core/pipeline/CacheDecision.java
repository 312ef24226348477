package io.github.avgateway.core.pipeline;

import io.github.avgateway.core.model.EngineVersion;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides per request whether the verdict cache is used under the scanner's current version, and in
 * {@link CacheMode#AUTO} says so in one INFO line each time the answer changes (a version appears
 * or disappears). An engine that never answered ({@link EngineVersion#UNKNOWN}) is not cached and
 * not logged: nothing is known yet.
 */
final class CacheDecision {

  private static final Logger log = LoggerFactory.getLogger(VerdictCache.class);

  private final CacheMode mode;
  private final AtomicReference<Boolean> lastLogged = new AtomicReference<>();

  CacheDecision(CacheMode mode) {
    this.mode = mode;
  }

  /** True when a verdict may be looked up and kept under {@code version}. */
  boolean uses(EngineVersion version) {
    return switch (mode) {
      case ON -> true;
      case OFF -> false;
      case AUTO -> auto(version);
    };
  }

  private boolean auto(EngineVersion version) {
    if (version.equals(EngineVersion.UNKNOWN)) {
      return false;
    }
    boolean versioned = !version.signatureVersion().isEmpty();
    Boolean before = lastLogged.getAndSet(versioned);
    if (before == null || before != versioned) {
      announce(version, versioned);
    }
    return versioned;
  }

  private static void announce(EngineVersion version, boolean versioned) {
    if (versioned) {
      log.info(
          "Verdict cache in use: clamd reports signature database version {} ({}); verdicts are"
              + " kept under it, so a reload that changes it is never answered from the cache",
          version.signatureVersion(),
          version.engine());
    } else {
      log.info(
          "Verdict cache not used: clamd ({}) reports no signature database version (custom"
              + " signatures only), so a signature reload would not change the cache key;"
              + " avgateway.pipeline.cache.enabled=true uses it anyway, bounded only by"
              + " avgateway.pipeline.cache.ttl",
          version.engine());
    }
  }
}
