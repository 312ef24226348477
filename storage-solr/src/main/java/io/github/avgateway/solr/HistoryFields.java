package io.github.avgateway.solr;

/** Field names of the history schema ({@code solr/configsets/avgateway/conf/schema.xml}). */
final class HistoryFields {

  static final String ID = "id";
  static final String REQUEST_ID = "requestId";
  static final String CORRELATION_ID = "correlationId";
  static final String TRANSPORT = "transport";
  static final String CLIENT_ID = "clientId";
  static final String FILENAME = "filename";
  static final String CONTENT_TYPE = "contentType";
  static final String SIZE_BYTES = "sizeBytes";
  static final String SHA256 = "sha256";
  static final String VERDICT = "verdict";
  static final String SIGNATURES = "signatures";
  static final String REASON = "reason";
  static final String ENGINE = "engine";
  static final String SIGNATURE_VERSION = "signatureVersion";
  static final String CACHED = "cached";
  static final String RECEIVED_AT = "receivedAt";
  static final String SCANNED_AFTER_MILLIS = "scannedAfterMillis";
  static final String SCAN_MILLIS = "scanMillis";
  static final String TOTAL_MILLIS = "totalMillis";
  static final String GATEWAY = "gateway";
  static final String REDELIVERED = "redelivered";
  static final String DISPOSITION = "disposition";
  static final String DEAD_LETTER_REASON = "deadLetterReason";
  static final String TRACE_ID = "traceId";
  static final String VERSION = "_version_";
  static final String SHA256_KEY = "sha256Key";
  static final String CORRELATION_KEY = "correlationKey";
  static final String TRACE_KEY = "traceKey";

  // per-slot counts (SolrRollups)
  static final String KIND = "kind";
  static final String SLOT_MILLIS = "slotMillis";
  static final String COUNTS = "counts";
  static final String SIGNATURE_COUNTS = "signatureCounts";
  static final String SOURCE_DIGEST = "sourceDigest";

  private HistoryFields() {}
}
