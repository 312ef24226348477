package io.github.avgateway.core.wire;

/**
 * Header and property names of the wire contract (design §3), the same on every transport. A JMS
 * front-end uses them as string properties, an AMQP front-end as headers.
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
