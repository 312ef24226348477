package io.github.avgateway.jms.reply;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import java.io.IOException;
import java.io.InputStream;

/** Reads the body of a {@code BytesMessage} from its start, without holding it in memory. */
final class BytesMessageInputStream extends InputStream {

  private final BytesMessage message;

  BytesMessageInputStream(BytesMessage message) throws JMSException {
    this.message = message;
    message.reset();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    byte[] chunk = offset == 0 ? buffer : new byte[length];
    try {
      int n = message.readBytes(chunk, length);
      if (n > 0 && chunk != buffer) {
        System.arraycopy(chunk, 0, buffer, offset, n);
      }
      return n <= 0 ? -1 : n;
    } catch (JMSException e) {
      throw new IOException("could not read the message body: " + e.getMessage(), e);
    }
  }
}
