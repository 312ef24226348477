package io.github.avgateway.core.model;

/**
 * The answer to "may this file pass?". Only {@link #CLEAN} means yes, and only when clamd scanned
 * the whole payload and answered {@code stream: OK}.
 */
public enum Verdict {
  /** clamd scanned every byte and found nothing. */
  CLEAN,
  /** clamd found at least one signature. */
  INFECTED,
  /** The file could not be fully scanned (too large, over clamd's limits, encrypted). */
  UNSCANNABLE,
  /** The scan did not happen or did not finish (clamd error, timeout, malformed request). */
  ERROR
}
