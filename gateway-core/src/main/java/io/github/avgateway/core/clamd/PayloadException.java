package io.github.avgateway.core.clamd;

import java.io.IOException;

/**
 * Reading the payload failed (the caller's stream, not clamd). Kept apart from {@link IOException}
 * so that a broken payload is never mistaken for a broken clamd session and retried.
 */
final class PayloadException extends Exception {

  private static final long serialVersionUID = 1L;

  PayloadException(IOException cause) {
    super("could not read the payload: " + cause.getMessage(), cause);
  }
}
