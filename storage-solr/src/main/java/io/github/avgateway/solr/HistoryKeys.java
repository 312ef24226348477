package io.github.avgateway.solr;

import java.nio.charset.StandardCharsets;
import org.apache.lucene.util.StringHelper;

/**
 * The 32-bit lookup keys of the values the history is searched by but does not index as terms (a
 * unique string term costs about 30 bytes a document, a 32-bit point 4). A key narrows a search to
 * the documents whose value has the same key; the store then keeps those whose stored value is
 * equal, so a key collision never changes an answer.
 */
final class HistoryKeys {

  private static final int SEED = 0x61766777; // "avgw"
  private static final int HEX_PREFIX = 8;

  private HistoryKeys() {}

  /**
   * The key of a SHA-256: its first 32 bits when it is lower-case hex (already uniformly spread),
   * otherwise the hash of the string.
   */
  static int sha256(String sha256) {
    if (sha256.length() >= HEX_PREFIX && isLowerHex(sha256)) {
      return (int) Long.parseLong(sha256, 0, HEX_PREFIX, 16);
    }
    return hash(sha256);
  }

  /** The key of a correlation id: MurmurHash3 (32 bits) of its UTF-8 bytes. */
  static int correlationId(String correlationId) {
    return hash(correlationId);
  }

  /** The key of a trace id: MurmurHash3 (32 bits) of its UTF-8 bytes. */
  static int traceId(String traceId) {
    return hash(traceId);
  }

  private static int hash(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    return StringHelper.murmurhash3_x86_32(bytes, 0, bytes.length, SEED);
  }

  private static boolean isLowerHex(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }
}
