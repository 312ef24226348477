package io.github.avgateway.core.config;

import io.github.avgateway.core.clamd.ClamdEndpoint;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The clamd client's settings, under {@code avgateway.clamd}. Startup fails with a message naming
 * the key when a value is unusable or inconsistent with the clamd server's own limits (given under
 * {@code avgateway.clamd.server}, defaults matching the project's {@code clamd.conf}).
 *
 * @param enabled whether the clamd client is configured at all
 * @param endpoints clamd daemons as {@code host:port}
 * @param poolSize most sessions per endpoint
 * @param connectTimeout TCP connect timeout (also bounds endpoint probes)
 * @param readTimeout how long clamd may stay silent; above clamd's MaxScanTime
 * @param maxSize the gateway's payload limit; at most clamd's StreamMaxLength
 * @param chunkSize the size of one INSTREAM chunk
 * @param evictIdleAfter idle sessions are closed after this; below clamd's IdleTimeout
 * @param validateAfterIdle sessions idle longer than this are PINGed before use
 * @param borrowTimeout how long a scan waits for a free session
 * @param probeInterval how often endpoints that are down, or up but idle, are PINGed
 * @param versionRefresh how often the engine and signature version are refreshed; after clamd
 *     switches to a new signature database, verdicts cached under the old version can be answered
 *     for at most this long
 * @param selfTestInterval how often the self-test runs again after it passed
 * @param server what the clamd server is configured with
 * @param signatures how old clamd's signatures may be (see {@link Signatures})
 */
@ConfigurationProperties("avgateway.clamd")
@Validated
public record ClamdProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("127.0.0.1:3310") @NotEmpty(message = "needs at least one clamd host:port")
        List<String> endpoints,
    @DefaultValue("8")
        @Min(value = 1, message = "must be at least 1")
        @Max(value = 256, message = "must be at most 256")
        int poolSize,
    @DefaultValue("2s") @NotNull @DurationMin(millis = 1, message = "must be positive")
        Duration connectTimeout,
    @DefaultValue("60s") @NotNull @DurationMin(millis = 1, message = "must be positive")
        Duration readTimeout,
    @DefaultValue("100MB") @NotNull DataSize maxSize,
    @DefaultValue("64KB") @NotNull DataSize chunkSize,
    @DefaultValue("60s") @NotNull @DurationMin(millis = 1, message = "must be positive")
        Duration evictIdleAfter,
    @DefaultValue("10s") @NotNull @DurationMin(millis = 0, message = "must not be negative")
        Duration validateAfterIdle,
    @DefaultValue("60s") @NotNull @DurationMin(millis = 1, message = "must be positive")
        Duration borrowTimeout,
    @DefaultValue("5s") @NotNull @DurationMin(millis = 1, message = "must be positive")
        Duration probeInterval,
    @DefaultValue("2s") @NotNull @DurationMin(millis = 1, message = "must be positive")
        Duration versionRefresh,
    @DefaultValue("5m") @NotNull @DurationMin(millis = 1, message = "must be positive")
        Duration selfTestInterval,
    @DefaultValue @NotNull @Valid Server server,
    @DefaultValue @NotNull @Valid Signatures signatures) {

  /** The largest chunk accepted: bigger chunks only cost memory per session. */
  static final DataSize MAX_CHUNK = DataSize.ofMegabytes(8);

  /**
   * The clamd server's own limits, as set in its {@code clamd.conf}; used only to check the
   * client's settings against them.
   *
   * @param streamMaxLength clamd's {@code StreamMaxLength}
   * @param maxScanTime clamd's {@code MaxScanTime}
   * @param idleTimeout clamd's {@code IdleTimeout}
   */
  public record Server(
      @DefaultValue("200MB") @NotNull DataSize streamMaxLength,
      @DefaultValue("30s") @NotNull Duration maxScanTime,
      @DefaultValue("120s") @NotNull Duration idleTimeout) {}

  /**
   * The signature age check of readiness. The age is the database date clamd reports with its
   * version (official signatures), else the newest file in {@code directory} when set, else it is
   * not measured (and the check passes).
   *
   * @param maxAge readiness is DOWN and intake paused while signatures are older; 0 turns it off
   * @param directory clamd's DatabaseDirectory as this host sees it; empty for none
   */
  public record Signatures(
      @DefaultValue("7d") @NotNull @DurationMin(millis = 0, message = "must not be negative")
          Duration maxAge,
      @DefaultValue("") @NotNull String directory) {}

  @AssertTrue(
      message = "endpoints must each be host:port with a port from 1 to 65535, e.g. 127.0.0.1:3310")
  public boolean isEndpointsWellFormed() {
    return endpoints == null || endpoints.stream().allMatch(ClamdProperties::isEndpoint);
  }

  private static boolean isEndpoint(String text) {
    try {
      ClamdEndpoint.parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @AssertTrue(
      message =
          "max-size must be positive and at most server.stream-max-length (clamd's"
              + " StreamMaxLength): clamd would cut a larger payload the gateway accepted")
  public boolean isMaxSizeWithinStreamMaxLength() {
    return maxSize == null
        || server == null
        || server.streamMaxLength() == null
        || (maxSize.toBytes() >= 1 && maxSize.compareTo(server.streamMaxLength()) <= 0);
  }

  @AssertTrue(
      message =
          "read-timeout must be above server.max-scan-time (clamd's MaxScanTime), so that clamd"
              + " answers a slow scan with its own limit before the gateway gives up")
  public boolean isReadTimeoutAboveMaxScanTime() {
    return readTimeout == null
        || server == null
        || server.maxScanTime() == null
        || readTimeout.compareTo(server.maxScanTime()) > 0;
  }

  @AssertTrue(
      message =
          "evict-idle-after must be below server.idle-timeout (clamd's IdleTimeout), so that the"
              + " gateway closes idle sessions before clamd drops them")
  public boolean isEvictIdleAfterBelowIdleTimeout() {
    return evictIdleAfter == null
        || server == null
        || server.idleTimeout() == null
        || evictIdleAfter.compareTo(server.idleTimeout()) < 0;
  }

  @AssertTrue(message = "chunk-size must be between 1KB and 8MB")
  public boolean isChunkSizeInRange() {
    return chunkSize == null
        || (chunkSize.toBytes() >= 1024 && chunkSize.compareTo(MAX_CHUNK) <= 0);
  }
}
