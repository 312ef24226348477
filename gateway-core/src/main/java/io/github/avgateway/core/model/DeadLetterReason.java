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
  FORWARD_UNROUTABLE
}
