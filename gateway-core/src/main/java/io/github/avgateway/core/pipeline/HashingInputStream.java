package io.github.avgateway.core.pipeline;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Computes SHA-256 and counts bytes of everything read through it. */
final class HashingInputStream extends FilterInputStream {

  private static final MessageDigest PROTOTYPE = lookUp();

  private final MessageDigest digest;
  private long count;

  HashingInputStream(InputStream in) {
    super(in);
    this.digest = sha256();
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      digest.update((byte) b);
      count++;
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n > 0) {
      digest.update(buffer, offset, n);
      count += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    // Skipped bytes must still be hashed: read them instead.
    byte[] buffer = new byte[8192];
    long skipped = 0;
    while (skipped < n) {
      int r = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
      if (r < 0) {
        break;
      }
      skipped += r;
    }
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  /**
   * Reads what is left, so that the hash covers the whole content; allocates nothing when the
   * stream was read to its end already (the usual case after a scan).
   */
  void drain() throws IOException {
    if (read() < 0) {
      return;
    }
    byte[] buffer = new byte[8192];
    while (read(buffer, 0, buffer.length) >= 0) {
      // hashing happens in read
    }
  }

  long count() {
    return count;
  }

  /** The hex digest of what was read; call once, after reading. */
  String hex() {
    return HexFormat.of().formatHex(digest.digest());
  }

  /** A fresh digest: a clone of one looked up once, which spares the provider lookup per scan. */
  private static MessageDigest sha256() {
    try {
      return (MessageDigest) PROTOTYPE.clone();
    } catch (CloneNotSupportedException e) {
      return lookUp();
    }
  }

  private static MessageDigest lookUp() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
