package io.github.avgateway.core.model;

/**
 * Why a request was dead-lettered instead of answered. Carried as the {@code avReason} property of
 * the dead-letter and recorded in history.
 */
public enum DeadLetterReason {
  /** Not a bytes message, no request id, or headers that cannot be read. */
  MALFORMED_REQUEST,
  /** No reply destination on the request and no default configured. */
  NO_REPLY_DESTINATION,
  /** The reply destination is outside the configured allow-list. */
  REPLY_DESTINATION_NOT_ALLOWED,
  /** The broker refused the reply (no such queue, wrong routing type). */
  REPLY_UNROUTABLE,
  /** Delivered more often than the delivery limit allows (a poison message). */
  DELIVERY_LIMIT_EXCEEDED,
  /**
   * Clean-pipe mode: the broker could not route the forward to the pipe's destination for the
   * verdict (no such queue). The message is dead-lettered, never forwarded elsewhere.
   */
  FORWARD_UNROUTABLE;

  /**
   * The ERROR reason recorded for a request dead-lettered with this reason before any scan, on
   * either transport: {@code SCAN_FAILED} for one over the delivery limit (something went wrong
   * with it before), {@code MALFORMED_REQUEST} for every fault of the request itself.
   */
  public Reason unscannedReason() {
    return switch (this) {
      case DELIVERY_LIMIT_EXCEEDED -> Reason.SCAN_FAILED;
      case MALFORMED_REQUEST,
          REPLY_DESTINATION_NOT_ALLOWED,
          NO_REPLY_DESTINATION,
          REPLY_UNROUTABLE,
          FORWARD_UNROUTABLE ->
          Reason.MALFORMED_REQUEST;
    };
  }
}
