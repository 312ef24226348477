package io.github.avgateway.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The verdict sent back to the caller (the reply's JSON body; docs/architecture.md, "Wire
 * contract").
 *
 * @param requestId the request's id
 * @param correlationId the reply's correlation id (the request's, else its id)
 * @param verdict the verdict
 * @param signatures signature names when INFECTED, else empty
 * @param reason why UNSCANNABLE or ERROR, else null
 * @param detail clamd's own words or the error, or null
 * @param sha256 hex SHA-256 of the payload, or null when it was not read (e.g. TOO_LARGE)
 * @param sizeBytes payload size in bytes
 * @param engine the engine, e.g. {@code ClamAV 1.4.6}
 * @param signatureVersion the signature database version, possibly empty
 * @param cached whether the verdict came from the verdict cache
 * @param scannedAt when the verdict was reached
 * @param scanMillis time spent scanning
 * @param gateway the gateway instance that answered
 */
public record ScanResult(
    String requestId,
    String correlationId,
    Verdict verdict,
    List<String> signatures,
    Reason reason,
    String detail,
    String sha256,
    long sizeBytes,
    String engine,
    String signatureVersion,
    boolean cached,
    Instant scannedAt,
    long scanMillis,
    String gateway) {

  public ScanResult {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(scannedAt, "scannedAt");
    signatures = signatures == null ? List.of() : List.copyOf(signatures);
  }

  /** The first signature, for the {@code avSignature} header; null unless INFECTED. */
  public String firstSignature() {
    return signatures.isEmpty() ? null : signatures.get(0);
  }
}
