package io.github.avgateway.core.clamd;

/** How one try at scanning a payload on one clamd session ended. */
sealed interface Attempt {

  /** clamd replied (possibly to a stream cut by a failed write: then not {@code whole}). */
  record Answered(ClamdReply reply, boolean wholePayloadSent) implements Attempt {}

  /** The payload passed the gateway limit while streaming; clamd never saw its end. */
  record TooLarge(long bytesRead) implements Attempt {}

  /** No reply; {@code why} says what happened, in words for the report. */
  record Failed(Failure failure, String why) implements Attempt {}

  /** Why an attempt got no reply; decides whether another attempt may follow. */
  enum Failure {
    /** No connection could be opened: nothing was read from the payload. */
    UNREACHABLE,
    /** Every session of the endpoint stayed busy for the borrow timeout. */
    BUSY,
    /**
     * The session failed mid-exchange (closed, reset, out of step, or clamd refused the command
     * without scanning, as a stopping clamd does): retry on a fresh one.
     */
    BROKEN,
    /** clamd stayed silent (or took no data) for the read timeout: not retried. */
    TIMED_OUT,
    /** The payload itself could not be read: not clamd's fault, not retried. */
    PAYLOAD
  }
}
