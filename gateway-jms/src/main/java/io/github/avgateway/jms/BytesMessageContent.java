package io.github.avgateway.jms;

import io.github.avgateway.core.model.ScanContent;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The body of a {@code BytesMessage} as {@link ScanContent}. The body is read into memory on the
 * first {@link #open()} only, so a payload the pipeline refuses by its size is never read. Not
 * thread-safe: used by the one consumer that received the message.
 */
final class BytesMessageContent implements ScanContent {

  private final BytesMessage message;
  private final long size;
  private byte[] bytes;

  BytesMessageContent(BytesMessage message) throws JMSException {
    this.message = message;
    this.size = message.getBodyLength();
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public InputStream open() throws IOException {
    return new ByteArrayInputStream(bytes());
  }

  private byte[] bytes() throws IOException {
    if (bytes == null) {
      if (size > Integer.MAX_VALUE - 8) {
        throw new IOException("a body of " + size + " bytes does not fit in memory");
      }
      try {
        bytes = readBody();
      } catch (JMSException e) {
        throw new IOException("could not read the message body: " + e.getMessage(), e);
      }
    }
    return bytes;
  }

  private byte[] readBody() throws JMSException, IOException {
    message.reset();
    byte[] body = new byte[(int) size];
    byte[] chunk = new byte[(int) Math.min(size, 1 << 16)];
    int offset = 0;
    int n;
    while (offset < body.length && (n = message.readBytes(chunk)) > 0) {
      int take = Math.min(n, body.length - offset);
      System.arraycopy(chunk, 0, body, offset, take);
      offset += take;
    }
    if (offset != body.length) {
      throw new IOException("read " + offset + " of " + size + " body bytes");
    }
    return body;
  }

  /** Whether the body has been read into memory. */
  boolean loaded() {
    return bytes != null;
  }

  /** The body if it has been read, else null. */
  byte[] bytesIfLoaded() {
    return bytes;
  }
}
