package io.github.avgateway.core.pipeline;

import io.github.avgateway.core.model.ScanContent;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request's content, hashed (SHA-256) while the scanner reads it: the hash is taken in the same
 * pass that sends the bytes to the scanner, not in one of its own. Every {@link #open()} starts a
 * new hash, so a scanner that sends the content again after a broken connection leaves the hash of
 * its last, whole reading. The streams handed out are closed by {@link #close()}, not by the
 * scanner, so that {@link #finish()} can hash what the scanner did not read (clamd may answer
 * before the end, and a payload over the limit is cut). Used by one thread.
 */
final class HashingContent implements ScanContent, AutoCloseable {

  private final ScanContent content;
  private HashingInputStream last;

  HashingContent(ScanContent content) {
    this.content = content;
  }

  @Override
  public long size() {
    return content.size();
  }

  @Override
  public InputStream open() throws IOException {
    close();
    last = new HashingInputStream(content.open());
    return new FilterInputStream(last) {
      @Override
      public void close() {
        // Kept open for finish(); closed with the HashingContent.
      }
    };
  }

  /** Bytes read through the last stream opened so far (0 before the first open). */
  long count() {
    return last == null ? 0 : last.count();
  }

  /**
   * Reads the rest of the last opened stream (opening one when the scanner never did) and returns
   * it, so that its hash and count cover the whole content.
   */
  HashingInputStream finish() throws IOException {
    if (last == null) {
      open();
    }
    last.drain();
    return last;
  }

  @Override
  public void close() throws IOException {
    if (last != null) {
      last.close();
    }
  }
}
