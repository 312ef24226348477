package io.github.avgateway.core.clamd;

import java.io.IOException;

/**
 * The session no longer follows the protocol: clamd closed it, sent a reply for another command, or
 * sent something that is not a session reply. The session is unusable afterwards.
 */
final class ClamdProtocolException extends IOException {

  private static final long serialVersionUID = 1L;

  ClamdProtocolException(String message) {
    super(message);
  }
}
