package io.github.avgateway.core.model;

/** Why a file is {@link Verdict#UNSCANNABLE} or why its scan ended in {@link Verdict#ERROR}. */
public enum Reason {
  /** Over the gateway's payload limit; checked before a byte is sent to clamd. */
  TOO_LARGE(Verdict.UNSCANNABLE),
  /** clamd hit one of its own limits ({@code Heuristics.Limits.Exceeded.*}). */
  LIMITS_EXCEEDED(Verdict.UNSCANNABLE),
  /** An encrypted archive or document ({@code Heuristics.Encrypted.*}). */
  ENCRYPTED(Verdict.UNSCANNABLE),
  /** clamd answered an error, an unknown reply, or nothing in time (after the retry). */
  SCAN_FAILED(Verdict.ERROR),
  /**
   * The request itself is unusable (wrong message type, missing id) or may not be answered (a reply
   * destination outside the allow-list); such requests are not scanned.
   */
  MALFORMED_REQUEST(Verdict.ERROR);

  private final Verdict verdict;

  Reason(Verdict verdict) {
    this.verdict = verdict;
  }

  /** The only verdict this reason may accompany. */
  public Verdict verdict() {
    return verdict;
  }
}
