package io.github.avgateway.core.clamd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes clamd's {@code zINSTREAM} command: the command, then the payload in chunks, each preceded
 * by its length as 4 bytes big-endian, then a zero length. Guarantees: at most one chunk of the
 * payload is in memory, in the caller's frame buffer; no more than {@code maxBytes} payload bytes
 * are ever written, and the terminator is written only when the whole payload was, so clamd can
 * only scan a complete payload.
 *
 * <p>Each frame is assembled in the frame buffer and leaves in one write, the command with the
 * first frame and the terminator with the last one that ends the payload: a payload smaller than a
 * chunk is one write, and no byte is copied on its way to the socket but the payload's one read
 * into the frame. A session keeps its frame buffer ({@link #newFrameBuffer()}) for all its scans.
 */
final class InstreamWriter {

  static final byte[] COMMAND = "zINSTREAM\0".getBytes(StandardCharsets.US_ASCII);
  private static final int LENGTH = 4;

  private final int chunkSize;
  private final long maxBytes;

  InstreamWriter(int chunkSize, long maxBytes) {
    if (chunkSize < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("chunk size and limit must be positive");
    }
    this.chunkSize = chunkSize;
    this.maxBytes = maxBytes;
  }

  /** How writing the stream ended. */
  sealed interface Result {
    /** Every byte and the terminator were written. */
    record Sent(long bytes) implements Result {}

    /** The payload passed the limit; {@code bytesSent} were written, without the terminator. */
    record TooLarge(long bytesRead, long bytesSent) implements Result {}
  }

  /** The size of a frame buffer for {@code chunkSize}: command, length, chunk, terminator. */
  static int frameBufferSize(int chunkSize) {
    return COMMAND.length + LENGTH + chunkSize + LENGTH;
  }

  /** A frame buffer for {@link #write(InputStream, OutputStream, byte[])}. */
  byte[] newFrameBuffer() {
    return new byte[frameBufferSize(chunkSize)];
  }

  /** Like {@link #write(InputStream, OutputStream, byte[])} with a frame buffer of its own. */
  Result write(InputStream payload, OutputStream out) throws IOException, PayloadException {
    return write(payload, out, newFrameBuffer());
  }

  /**
   * Writes the command and payload to {@code out} and flushes it.
   *
   * @param frame a buffer of at least {@link #frameBufferSize(int)} bytes, used by one scan at a
   *     time
   * @throws PayloadException when reading {@code payload} fails
   * @throws IOException when writing to {@code out} fails
   */
  Result write(InputStream payload, OutputStream out, byte[] frame)
      throws IOException, PayloadException {
    if (frame.length < frameBufferSize(chunkSize)) {
      throw new IllegalArgumentException("the frame buffer is smaller than one frame");
    }
    System.arraycopy(COMMAND, 0, frame, 0, COMMAND.length);
    int start = COMMAND.length;
    long sent = 0;
    while (true) {
      int n = read(payload, frame, start + LENGTH, chunkSize);
      if (n == 0) {
        break;
      }
      if (sent + n > maxBytes) {
        out.write(frame, 0, start);
        out.flush();
        return new Result.TooLarge(sent + n, sent);
      }
      putLength(frame, start, n);
      int end = start + LENGTH + n;
      // A chunk that is not full ended the payload: its frame carries the terminator too.
      boolean ended = n < chunkSize;
      if (ended) {
        putLength(frame, end, 0);
        end += LENGTH;
      }
      out.write(frame, 0, end);
      sent += n;
      if (ended) {
        out.flush();
        return new Result.Sent(sent);
      }
      start = 0;
    }
    putLength(frame, start, 0);
    out.write(frame, 0, start + LENGTH);
    out.flush();
    return new Result.Sent(sent);
  }

  /**
   * Fills {@code length} bytes of {@code frame} from {@code offset} unless the payload ends first;
   * returns the bytes read (0 at the end).
   */
  private static int read(InputStream payload, byte[] frame, int offset, int length)
      throws PayloadException {
    int filled = 0;
    try {
      while (filled < length) {
        int n = payload.read(frame, offset + filled, length - filled);
        if (n < 0) {
          break;
        }
        filled += n;
      }
    } catch (IOException e) {
      throw new PayloadException(e);
    }
    return filled;
  }

  private static void putLength(byte[] frame, int at, int length) {
    frame[at] = (byte) (length >>> 24);
    frame[at + 1] = (byte) (length >>> 16);
    frame[at + 2] = (byte) (length >>> 8);
    frame[at + 3] = (byte) length;
  }
}
