package io.github.avgateway.core.model;

/** What the gateway did with a request once its verdict was known. */
public enum Disposition {
  /** A reply was sent to the caller's reply destination. */
  REPLIED,
  /** The request went to the dead-letter destination, with a {@link DeadLetterReason}. */
  DEAD_LETTERED,
  /** Clean-pipe mode: the original message was forwarded to the pipe's clean destination. */
  FORWARDED_CLEAN,
  /** Clean-pipe mode: INFECTED, the original message was forwarded to the quarantine. */
  QUARANTINED,
  /**
   * Clean-pipe mode: UNSCANNABLE or ERROR, the original message was forwarded to the rejected
   * destination (fail closed: never to clean).
   */
  REJECTED
}
