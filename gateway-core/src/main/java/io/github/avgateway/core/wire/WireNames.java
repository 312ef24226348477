package io.github.avgateway.core.wire;

/**
 * Header and property names of the wire contract (docs/architecture.md, "Wire contract"), the same
 * on every transport. A JMS front-end uses them as string properties, an AMQP front-end as headers.
 */
public final class WireNames {

  /** Request: the caller's file name. */
  public static final String FILENAME = "avFilename";

  /** Request (JMS): the caller's client id when JMSXUserID is not set. */
  public static final String CLIENT_ID = "avClientId";

  /** Reply: CLEAN, INFECTED, UNSCANNABLE or ERROR. */
  public static final String VERDICT = "avVerdict";

  /** Reply: the first signature, when INFECTED. */
  public static final String SIGNATURE = "avSignature";

  /** Reply: the reason when UNSCANNABLE or ERROR; dead-letter: why it was dead-lettered. */
  public static final String REASON = "avReason";

  /** Clean-pipe forward: when the verdict was reached, ISO-8601 UTC. */
  public static final String SCANNED_AT = "avScannedAt";

  /** Clean-pipe forward: hex SHA-256 of the body, when it was read. */
  public static final String SHA256 = "avSha256";

  /** Clean-pipe forward: the engine and signature version, e.g. {@code ClamAV 1.4.6/27001}. */
  public static final String ENGINE = "avEngine";

  /** Dead-letter: a sentence on the reason, for operators. */
  public static final String REASON_DETAIL = "avReasonDetail";

  /**
   * Dead-letter: the request's headers or properties that could not be carried under their own
   * name, as one JSON object (see {@link OriginalHeaders}).
   */
  public static final String ORIGINAL_HEADERS = "avOriginalHeaders";

  /** History message: the schema of its body ({@code HistoryMessages.SCHEMA}). */
  public static final String HISTORY_SCHEMA = "avHistorySchema";

  /** History message: how many documents it holds. */
  public static final String HISTORY_DOCUMENTS = "avDocuments";

  /** Content type of the reply body. */
  public static final String JSON_CONTENT_TYPE = "application/json";

  private WireNames() {}
}
