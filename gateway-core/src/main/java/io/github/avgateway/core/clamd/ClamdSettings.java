package io.github.avgateway.core.clamd;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything the clamd client needs, in plain Java types (the Spring properties record maps onto
 * this). The constructor rejects values the client cannot work with; consistency with the clamd
 * server's own limits is checked where those limits are known (the properties record).
 *
 * @param endpoints the clamd daemons to use, at least one
 * @param poolSize the most sessions kept per endpoint (also the most concurrent scans on it)
 * @param connectTimeout how long to wait for a TCP connection (also bounds endpoint probes)
 * @param readTimeout how long clamd may stay silent (no reply, or not taking data) before the scan
 *     is answered ERROR; keep it above clamd's MaxScanTime
 * @param maxSizeBytes the gateway's payload limit; larger payloads are UNSCANNABLE TOO_LARGE
 * @param chunkSizeBytes the size of one INSTREAM chunk, and of the buffer used to send it
 * @param evictIdleAfter idle sessions older than this are closed; keep it below clamd's IdleTimeout
 * @param validateAfterIdle a session idle longer than this is checked with PING before use
 * @param borrowTimeout how long a scan waits for a free session when all are busy
 * @param probeInterval how often an endpoint marked down is probed with PING
 * @param versionRefresh how often the engine and signature version are asked again
 */
public record ClamdSettings(
    List<ClamdEndpoint> endpoints,
    int poolSize,
    Duration connectTimeout,
    Duration readTimeout,
    long maxSizeBytes,
    int chunkSizeBytes,
    Duration evictIdleAfter,
    Duration validateAfterIdle,
    Duration borrowTimeout,
    Duration probeInterval,
    Duration versionRefresh) {

  public ClamdSettings {
    endpoints = List.copyOf(endpoints);
    require(!endpoints.isEmpty(), "at least one clamd endpoint is needed");
    require(poolSize >= 1, "poolSize must be at least 1");
    require(maxSizeBytes >= 1, "maxSizeBytes must be at least 1");
    require(chunkSizeBytes >= 1, "chunkSizeBytes must be at least 1");
    positive(connectTimeout, "connectTimeout");
    positive(readTimeout, "readTimeout");
    positive(evictIdleAfter, "evictIdleAfter");
    require(!validateAfterIdle.isNegative(), "validateAfterIdle must not be negative");
    positive(borrowTimeout, "borrowTimeout");
    positive(probeInterval, "probeInterval");
    positive(versionRefresh, "versionRefresh");
  }

  /** The production defaults (those of the properties record) for the given endpoints. */
  public static Builder builder(List<ClamdEndpoint> endpoints) {
    return new Builder(endpoints);
  }

  private static void positive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    require(value.isPositive(), name + " must be positive");
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  /** Starts from the defaults; every setter returns this builder. */
  public static final class Builder {
    private final List<ClamdEndpoint> endpoints;
    private int poolSize = 8;
    private Duration connectTimeout = Duration.ofSeconds(2);
    private Duration readTimeout = Duration.ofSeconds(60);
    private long maxSizeBytes = 100L * 1024 * 1024;
    private int chunkSizeBytes = 64 * 1024;
    private Duration evictIdleAfter = Duration.ofSeconds(60);
    private Duration validateAfterIdle = Duration.ofSeconds(10);
    private Duration borrowTimeout = Duration.ofSeconds(60);
    private Duration probeInterval = Duration.ofSeconds(5);
    private Duration versionRefresh = Duration.ofSeconds(2);

    private Builder(List<ClamdEndpoint> endpoints) {
      this.endpoints = List.copyOf(endpoints);
    }

    public Builder poolSize(int value) {
      poolSize = value;
      return this;
    }

    public Builder connectTimeout(Duration value) {
      connectTimeout = value;
      return this;
    }

    public Builder readTimeout(Duration value) {
      readTimeout = value;
      return this;
    }

    public Builder maxSizeBytes(long value) {
      maxSizeBytes = value;
      return this;
    }

    public Builder chunkSizeBytes(int value) {
      chunkSizeBytes = value;
      return this;
    }

    public Builder evictIdleAfter(Duration value) {
      evictIdleAfter = value;
      return this;
    }

    public Builder validateAfterIdle(Duration value) {
      validateAfterIdle = value;
      return this;
    }

    public Builder borrowTimeout(Duration value) {
      borrowTimeout = value;
      return this;
    }

    public Builder probeInterval(Duration value) {
      probeInterval = value;
      return this;
    }

    public Builder versionRefresh(Duration value) {
      versionRefresh = value;
      return this;
    }

    public ClamdSettings build() {
      return new ClamdSettings(
          endpoints,
          poolSize,
          connectTimeout,
          readTimeout,
          maxSizeBytes,
          chunkSizeBytes,
          evictIdleAfter,
          validateAfterIdle,
          borrowTimeout,
          probeInterval,
          versionRefresh);
    }
  }
}
