package io.github.avgateway.core.model;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bytes of one file to scan. May be opened more than once (the pipeline hashes before scanning
 * when the verdict cache is on); each {@link #open()} starts from the first byte.
 */
public interface ScanContent {

  /** Marks a size that is not known before reading. */
  long UNKNOWN_SIZE = -1;

  /** The size in bytes, or {@link #UNKNOWN_SIZE}. */
  long size();

  /** A new stream over the whole content; the caller closes it. */
  InputStream open() throws IOException;

  static ScanContent of(byte[] bytes) {
    return new ScanContent() {
      @Override
      public long size() {
        return bytes.length;
      }

      @Override
      public InputStream open() {
        return new ByteArrayInputStream(bytes);
      }
    };
  }

  static ScanContent of(Path file) throws IOException {
    long size = Files.size(file);
    return new ScanContent() {
      @Override
      public long size() {
        return size;
      }

      @Override
      public InputStream open() throws IOException {
        return Files.newInputStream(file);
      }
    };
  }
}
