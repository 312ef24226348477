package io.github.avgateway.core.model;

import java.util.Objects;

/**
 * The scanning engine and its signature database version, as clamd's {@code VERSION} reports them
 * ({@code ClamAV 1.4.6/27451/date}; only {@code ClamAV 1.4.6} with custom signatures only).
 *
 * @param engine engine name and version, e.g. {@code ClamAV 1.4.6}
 * @param signatureVersion the official database version, or empty when clamd reports none
 */
public record EngineVersion(String engine, String signatureVersion) {

  /** Used where the engine never answered (e.g. clamd unreachable). */
  public static final EngineVersion UNKNOWN = new EngineVersion("unknown", "");

  public EngineVersion {
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(signatureVersion, "signatureVersion");
  }
}
