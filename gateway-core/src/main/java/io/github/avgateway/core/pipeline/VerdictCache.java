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
 * they may pass with a retry or another configuration. Bounded in size and age.
 */
public final class VerdictCache {

  private record Key(String sha256, String engine, String signatureVersion) {}

  private final Cache<Key, ScanReport> cache;

  private VerdictCache(Cache<Key, ScanReport> cache) {
    this.cache = cache;
  }

  /** A cache of at most {@code maxEntries} verdicts, each kept at most {@code ttl}. */
  public static VerdictCache bounded(long maxEntries, Duration ttl) {
    return new VerdictCache(
        Caffeine.newBuilder().maximumSize(maxEntries).expireAfterWrite(ttl).build());
  }

  /** A cache that keeps nothing. */
  public static VerdictCache disabled() {
    return new VerdictCache(null);
  }

  public boolean enabled() {
    return cache != null;
  }

  /** The verdict kept for this content under this engine version, if any. */
  public Optional<ScanReport> find(String sha256, EngineVersion engine) {
    if (cache == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(cache.getIfPresent(key(sha256, engine)));
  }

  /** Keeps {@code report} if its verdict may be reused (CLEAN or INFECTED). */
  public void keep(String sha256, ScanReport report) {
    if (cache != null && reusable(report.verdict())) {
      cache.put(key(sha256, report.engine()), report);
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
