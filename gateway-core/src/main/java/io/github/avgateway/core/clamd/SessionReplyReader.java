package io.github.avgateway.core.clamd;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads replies inside a {@code zIDSESSION}: each is {@code <id>: <text>} ended by a NUL, and the
 * id must be that of the command it answers (clamd numbers a session's commands from 1). Returns
 * the text without the id; anything else is a {@link ClamdProtocolException}.
 */
final class SessionReplyReader {

  /** Longer than any reply clamd sends to PING, VERSION or INSTREAM. */
  static final int MAX_REPLY_BYTES = 16 * 1024;

  private final InputStream in;

  /** The reply being read; grown up to {@link #MAX_REPLY_BYTES}, kept for the session's replies. */
  private byte[] bytes = new byte[64];

  SessionReplyReader(InputStream in) {
    this.in = in;
  }

  /** Reads the reply to command {@code expectedId}. */
  String read(int expectedId) throws IOException {
    String reply = readRaw();
    int colon = reply.indexOf(": ");
    if (colon <= 0 || !digitsOnly(reply, colon)) {
      throw new ClamdProtocolException("clamd sent a reply without a session id: " + reply);
    }
    String id = reply.substring(0, colon);
    if (!id.equals(Integer.toString(expectedId))) {
      throw new ClamdProtocolException(
          "clamd answered command " + id + " while command " + expectedId + " was expected");
    }
    return reply.substring(colon + 2);
  }

  private static boolean digitsOnly(String text, int end) {
    for (int i = 0; i < end; i++) {
      if (!Character.isDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private String readRaw() throws IOException {
    int size = 0;
    for (int b = in.read(); b != 0; b = in.read()) {
      if (b < 0) {
        throw new ClamdProtocolException(
            size == 0
                ? "clamd closed the session"
                : "clamd closed the session in the middle of a reply: " + text(size));
      }
      if (size >= MAX_REPLY_BYTES) {
        throw new ClamdProtocolException("clamd sent a reply longer than " + MAX_REPLY_BYTES);
      }
      if (size == bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.min(2 * size, MAX_REPLY_BYTES));
      }
      bytes[size++] = (byte) b;
    }
    return text(size);
  }

  private String text(int size) {
    return new String(bytes, 0, size, StandardCharsets.UTF_8);
  }
}
