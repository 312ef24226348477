package io.github.avgateway.jms.reply;

/** JMS-only names of the wire contract, besides the shared {@code WireNames}. */
public final class JmsWire {

  /** Reply: the body's content type ({@code application/json}), as Spring JMS names it. */
  public static final String CONTENT_TYPE = "contentType";

  /** Dead-letter: the request id the gateway recorded in history. */
  public static final String REQUEST_ID = "avRequestId";

  /** Dead-letter: the JMS type the request arrived as, e.g. {@code TextMessage}. */
  public static final String ORIGINAL_TYPE = "avOriginalType";

  /** Dead-letter: how often the broker had delivered the request. */
  public static final String DELIVERY_COUNT = "avDeliveryCount";

  private JmsWire() {}
}
