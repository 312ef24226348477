package io.github.avgateway.core.clamd;

import io.github.avgateway.core.model.ScanContent;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;

/**
 * The payload of one scan, and whether it can be sent once more after a session broke. A {@link
 * ScanContent} can always be reopened. A caller's one-shot {@link InputStream} is buffered for its
 * first chunk only: it can be sent again as long as nothing past that chunk was read (every payload
 * up to one chunk, and larger ones whose session broke before the second chunk).
 */
sealed interface ScanSource {

  /** The size the caller declared, or {@link ScanContent#UNKNOWN_SIZE}. */
  long declaredSize();

  /** Whether {@link #open()} may be called (again). */
  boolean canOpen();

  /** A stream over the whole payload from its first byte; closing it never closes the caller's. */
  InputStream open() throws PayloadException;

  static ScanSource of(ScanContent content) {
    return new Content(content);
  }

  static ScanSource of(InputStream stream, long declaredSize, int bufferedPrefix) {
    return new OneShot(stream, declaredSize, bufferedPrefix);
  }

  /** Reopens the content for every attempt. */
  record Content(ScanContent content) implements ScanSource {
    @Override
    public long declaredSize() {
      return content.size();
    }

    @Override
    public boolean canOpen() {
      return true;
    }

    @Override
    public InputStream open() throws PayloadException {
      try {
        return content.open();
      } catch (IOException e) {
        throw new PayloadException(e);
      }
    }
  }

  /** Replays a buffered first chunk, then continues the caller's stream. */
  final class OneShot implements ScanSource {
    private final InputStream stream;
    private final long declaredSize;
    private final int prefixSize;
    private byte[] prefix;
    private boolean readPastPrefix;

    OneShot(InputStream stream, long declaredSize, int prefixSize) {
      this.stream = stream;
      this.declaredSize = declaredSize;
      this.prefixSize = prefixSize;
    }

    @Override
    public long declaredSize() {
      return declaredSize;
    }

    @Override
    public boolean canOpen() {
      return !readPastPrefix;
    }

    @Override
    public InputStream open() throws PayloadException {
      if (readPastPrefix) {
        throw new IllegalStateException("the payload was read past its first chunk");
      }
      try {
        if (prefix == null) {
          prefix = stream.readNBytes(prefixSize);
        }
      } catch (IOException e) {
        throw new PayloadException(e);
      }
      return new SequenceInputStream(new ByteArrayInputStream(prefix), new Rest());
    }

    /** The caller's stream past the prefix; notes any byte taken, never closes it. */
    private final class Rest extends FilterInputStream {
      Rest() {
        super(stream);
      }

      @Override
      public int read() throws IOException {
        int b = super.read();
        readPastPrefix |= b >= 0;
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        readPastPrefix |= n > 0;
        return n;
      }

      @Override
      public void close() {
        // The caller owns the stream.
      }
    }
  }
}
