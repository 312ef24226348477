package io.github.avgateway.core.clamd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads replies inside a {@code zIDSESSION}: each is {@code <id>: <text>} ended by a NUL, and the
 * id must be that of the command it answers (clamd numbers a session's commands from 1). Returns
 * the text without the id; anything else is a {@link ClamdProtocolException}.
 */
final class SessionReplyReader {

  /** Longer than any reply clamd sends to PING, VERSION or INSTREAM. */
  static final int MAX_REPLY_BYTES = 16 * 1024;

  private final InputStream in;

  SessionReplyReader(InputStream in) {
    this.in = in;
  }

  /** Reads the reply to command {@code expectedId}. */
  String read(int expectedId) throws IOException {
    String reply = readRaw();
    int colon = reply.indexOf(": ");
    if (colon <= 0 || !reply.substring(0, colon).chars().allMatch(Character::isDigit)) {
      throw new ClamdProtocolException("clamd sent a reply without a session id: " + reply);
    }
    String id = reply.substring(0, colon);
    if (!id.equals(Integer.toString(expectedId))) {
      throw new ClamdProtocolException(
          "clamd answered command " + id + " while command " + expectedId + " was expected");
    }
    return reply.substring(colon + 2);
  }

  private String readRaw() throws IOException {
    ByteArrayOutputStream reply = new ByteArrayOutputStream();
    for (int b = in.read(); b != 0; b = in.read()) {
      if (b < 0) {
        throw new ClamdProtocolException(
            reply.size() == 0
                ? "clamd closed the session"
                : "clamd closed the session in the middle of a reply: " + text(reply));
      }
      if (reply.size() >= MAX_REPLY_BYTES) {
        throw new ClamdProtocolException("clamd sent a reply longer than " + MAX_REPLY_BYTES);
      }
      reply.write(b);
    }
    return text(reply);
  }

  private static String text(ByteArrayOutputStream bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
