package io.github.avgateway.jms.triage;

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
public final class BytesMessageContent implements ScanContent {

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

  /**
   * Reads the body straight into an array of its size: {@code readBytes} fills the whole array when
   * that many bytes remain (JMS 2.0), so the bytes are copied once, not through a chunk.
   */
  private byte[] readBody() throws JMSException, IOException {
    message.reset();
    byte[] body = new byte[(int) size];
    if (body.length == 0) {
      return body;
    }
    int read = message.readBytes(body);
    if (read != body.length) {
      throw new IOException("read " + Math.max(read, 0) + " of " + size + " body bytes");
    }
    return body;
  }

  /** Whether the body has been read into memory. */
  public boolean loaded() {
    return bytes != null;
  }

  /** The body if it has been read, else null. */
  public byte[] bytesIfLoaded() {
    return bytes;
  }
}
