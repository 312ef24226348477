package io.github.avgateway.core.clamd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes clamd's {@code zINSTREAM} command: the command, then the payload in chunks, each preceded
 * by its length as 4 bytes big-endian, then a zero length. Guarantees: at most one chunk of the
 * payload is in memory; no more than {@code maxBytes} payload bytes are ever written, and the
 * terminator is written only when the whole payload was, so clamd can only scan a complete payload.
 */
final class InstreamWriter {

  static final byte[] COMMAND = "zINSTREAM\0".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TERMINATOR = new byte[4];

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

  /**
   * Writes the command and payload to {@code out} and flushes it.
   *
   * @throws PayloadException when reading {@code payload} fails
   * @throws IOException when writing to {@code out} fails
   */
  Result write(InputStream payload, OutputStream out) throws IOException, PayloadException {
    out.write(COMMAND);
    byte[] chunk = new byte[chunkSize];
    long sent = 0;
    for (int n = read(payload, chunk); n > 0; n = read(payload, chunk)) {
      if (sent + n > maxBytes) {
        out.flush();
        return new Result.TooLarge(sent + n, sent);
      }
      writeFrame(out, chunk, n);
      sent += n;
    }
    out.write(TERMINATOR);
    out.flush();
    return new Result.Sent(sent);
  }

  /** Fills {@code chunk} unless the payload ends first; returns the bytes read (0 at the end). */
  private static int read(InputStream payload, byte[] chunk) throws PayloadException {
    int filled = 0;
    try {
      while (filled < chunk.length) {
        int n = payload.read(chunk, filled, chunk.length - filled);
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

  private static void writeFrame(OutputStream out, byte[] chunk, int length) throws IOException {
    out.write(
        new byte[] {
          (byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length
        });
    out.write(chunk, 0, length);
  }
}
