package io.github.avgateway.core.config;

import io.github.avgateway.core.pipeline.CacheMode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The scan pipeline ({@code avgateway.pipeline.*}). The payload limit is {@code
 * avgateway.clamd.max-size}, checked against clamd's own.
 *
 * @param gatewayName this gateway's name in replies and history; empty means the host name
 * @param cache the verdict cache
 */
@ConfigurationProperties("avgateway.pipeline")
@Validated
public record PipelineProperties(
    @DefaultValue("") @NotNull String gatewayName, @DefaultValue @Valid @NotNull Cache cache) {

  /**
   * The verdict cache: CLEAN and INFECTED verdicts kept by SHA-256 and engine version. {@code auto}
   * by default: used only while clamd reports a signature database version, which is part of the
   * key, so a reload that changes it is never answered from the cache. With signatures that carry
   * no version (custom databases) a reload does not change the key: {@code true} uses the cache
   * anyway, and then only the TTL bounds how long an old verdict is reused.
   *
   * @param enabled {@code auto}, {@code true} (always) or {@code false} (never)
   * @param maxEntries how many verdicts are kept at most
   * @param ttl how long one verdict is kept at most
   */
  public record Cache(
      @DefaultValue("auto") @NotNull CacheMode enabled,
      @DefaultValue("100000")
          @Positive(message = "avgateway.pipeline.cache.max-entries must be positive")
          long maxEntries,
      @DefaultValue("10m") @NotNull Duration ttl) {}
}
