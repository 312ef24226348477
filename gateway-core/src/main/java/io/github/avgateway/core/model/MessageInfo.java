package io.github.avgateway.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The history document of one request (docs/architecture.md, "The history path"). Its {@link #id()}
 * is derived from transport and request id, so a redelivered request overwrites its document
 * instead of adding a second one. {@link #traceId()} is the W3C trace id the request was handled
 * in, or null when it was not traced (tracing off, or a new trace that was not sampled).
 */
public record MessageInfo(
    String id,
    String requestId,
    String correlationId,
    String transport,
    String clientId,
    String filename,
    String contentType,
    long sizeBytes,
    String sha256,
    Verdict verdict,
    List<String> signatures,
    Reason reason,
    String engine,
    String signatureVersion,
    boolean cached,
    Instant receivedAt,
    Instant scannedAt,
    long scanMillis,
    long totalMillis,
    String gateway,
    boolean redelivered,
    Disposition disposition,
    DeadLetterReason deadLetterReason,
    String traceId) {

  public MessageInfo {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(receivedAt, "receivedAt");
    Objects.requireNonNull(disposition, "disposition");
    signatures = signatures == null ? List.of() : List.copyOf(signatures);
    if ((disposition == Disposition.DEAD_LETTERED) != (deadLetterReason != null)) {
      throw new IllegalArgumentException("a dead-letter reason goes with DEAD_LETTERED only");
    }
  }

  /** A document without a trace id. */
  public MessageInfo(
      String id,
      String requestId,
      String correlationId,
      String transport,
      String clientId,
      String filename,
      String contentType,
      long sizeBytes,
      String sha256,
      Verdict verdict,
      List<String> signatures,
      Reason reason,
      String engine,
      String signatureVersion,
      boolean cached,
      Instant receivedAt,
      Instant scannedAt,
      long scanMillis,
      long totalMillis,
      String gateway,
      boolean redelivered,
      Disposition disposition,
      DeadLetterReason deadLetterReason) {
    this(
        id,
        requestId,
        correlationId,
        transport,
        clientId,
        filename,
        contentType,
        sizeBytes,
        sha256,
        verdict,
        signatures,
        reason,
        engine,
        signatureVersion,
        cached,
        receivedAt,
        scannedAt,
        scanMillis,
        totalMillis,
        gateway,
        redelivered,
        disposition,
        deadLetterReason,
        null);
  }

  /** This document with {@code traceId} (null: none); itself when it has that one already. */
  public MessageInfo withTraceId(String traceId) {
    if (Objects.equals(traceId, this.traceId)) {
      return this;
    }
    return new MessageInfo(
        id,
        requestId,
        correlationId,
        transport,
        clientId,
        filename,
        contentType,
        sizeBytes,
        sha256,
        verdict,
        signatures,
        reason,
        engine,
        signatureVersion,
        cached,
        receivedAt,
        scannedAt,
        scanMillis,
        totalMillis,
        gateway,
        redelivered,
        disposition,
        deadLetterReason,
        traceId);
  }

  /** The document id of a request: stable across redeliveries. */
  public static String idFor(String transport, String requestId) {
    return transport + ":" + requestId;
  }
}
