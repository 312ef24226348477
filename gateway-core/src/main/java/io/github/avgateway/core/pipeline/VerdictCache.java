package io.github.avgateway.core.pipeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import java.time.Duration;
import java.util.Optional;

/**
 * Remembers CLEAN and INFECTED verdicts by content hash and engine version, so the same file is not
 * sent to clamd again while the signatures are unchanged. UNSCANNABLE and ERROR are never kept:
 * they may pass with a retry or another configuration. Bounded in size and age; whether it is used
 * for a request is decided by its {@link CacheMode} under the scanner's version at that moment.
 */
public final class VerdictCache {

  private record Key(String sha256, String engine, String signatureVersion) {}

  private final Cache<Key, ScanReport> cache;
  private final CacheDecision decision;

  private VerdictCache(Cache<Key, ScanReport> cache, CacheMode mode) {
    this.cache = cache;
    this.decision = new CacheDecision(mode);
  }

  /**
   * A cache of at most {@code maxEntries} verdicts, each kept at most {@code ttl}, used as {@code
   * mode} says ({@link CacheMode#OFF} keeps nothing).
   */
  public static VerdictCache bounded(long maxEntries, Duration ttl, CacheMode mode) {
    if (mode == CacheMode.OFF) {
      return disabled();
    }
    return new VerdictCache(
        Caffeine.newBuilder().maximumSize(maxEntries).expireAfterWrite(ttl).build(), mode);
  }

  /** A cache that keeps nothing. */
  public static VerdictCache disabled() {
    return new VerdictCache(null, CacheMode.OFF);
  }

  /**
   * True when a request scanned while the scanner reports {@code version} is looked up in, and kept
   * in, this cache. Asked for every request: in {@link CacheMode#AUTO} the answer follows the
   * version clamd reports.
   */
  public boolean usedFor(EngineVersion version) {
    return cache != null && decision.uses(version);
  }

  /** The verdict kept for this content under this engine version, if any. */
  public Optional<ScanReport> find(String sha256, EngineVersion engine) {
    if (cache == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(cache.getIfPresent(key(sha256, engine)));
  }

  /**
   * Keeps {@code report} if its verdict may be reused (CLEAN or INFECTED) and the scanner still
   * reports {@code before}, the version read before the scan: a scan during which the version
   * changed may have run on either database, so it is kept under neither.
   */
  public void keep(String sha256, EngineVersion before, ScanReport report) {
    if (cache != null && reusable(report.verdict()) && report.engine().equals(before)) {
      cache.put(key(sha256, before), report);
    }
  }

  private static boolean reusable(Verdict verdict) {
    return switch (verdict) {
      case CLEAN, INFECTED -> true;
      case UNSCANNABLE, ERROR -> false;
    };
  }

  private static Key key(String sha256, EngineVersion engine) {
    return new Key(sha256, engine.engine(), engine.signatureVersion());
  }
}
