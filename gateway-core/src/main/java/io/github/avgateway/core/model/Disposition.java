package io.github.avgateway.core.model;

/** What the gateway did with a request once its verdict was known. */
public enum Disposition {
  /** A reply was sent to the caller's reply destination. */
  REPLIED,
  /** The request went to the dead-letter destination, with a {@link DeadLetterReason}. */
  DEAD_LETTERED
}
