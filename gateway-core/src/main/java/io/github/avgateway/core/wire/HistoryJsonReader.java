package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads a history message in the form {@link JsonWriter} writes it, straight from the UTF-8 bytes:
 * every field of every document present once, values of their own JSON type, timestamps as {@code
 * ISO_INSTANT} prints them, strings valid UTF-8. Anything else, however valid, it leaves to the
 * Jackson mapper by returning null: fields it does not know, a number for a string, an escaped
 * surrogate, a timestamp in another form, a document the record refuses. What it does read, it
 * reads as the mapper reads it (checked by {@code HistoryJsonReaderTest}, also on mutated bodies).
 * The history indexer spent about a fifth of its CPU in the mapper's tree and timestamp parser. Not
 * thread-safe: one per body.
 */
final class HistoryJsonReader {

  /** Not a body this reader reads: the mapper decides. Thrown often enough to skip the trace. */
  private static final class NotRead extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotRead() {
      super("left to the mapper", null, false, false);
    }
  }

  private static final NotRead NOT_READ = new NotRead();

  /**
   * Every field of a document but the optional trace id, one bit each, in the record's order (a
   * gateway without tracing support writes no trace id).
   */
  private static final int ALL_FIELDS = (1 << 23) - 1;

  private static final int[] POWERS_OF_TEN = {
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000
  };

  private final byte[] in;
  private int pos;

  private HistoryJsonReader(byte[] in) {
    this.in = in;
  }

  /** The message in {@code body}, or null when the mapper must read it. */
  static HistoryMessage read(byte[] body) {
    try {
      return new HistoryJsonReader(body).message();
    } catch (RuntimeException e) {
      // NotRead, or what a record or LocalDate refused: the mapper gives the answer and the reason.
      return null;
    }
  }

  private HistoryMessage message() {
    whitespace();
    expect('{');
    int schema = 0;
    List<MessageInfo> documents = null;
    int seen = 0;
    do {
      whitespace();
      String key = string();
      whitespace();
      expect(':');
      whitespace();
      int bit =
          switch (key) {
            case "schema" -> {
              long value = number();
              if (value != HistoryMessages.SCHEMA) {
                throw NOT_READ;
              }
              schema = (int) value;
              yield 1;
            }
            case "documents" -> {
              documents = array(this::document);
              yield 2;
            }
            default -> throw NOT_READ;
          };
      seen = once(seen, bit);
      whitespace();
    } while (more('}'));
    whitespace();
    if (pos != in.length || seen != 3) {
      throw NOT_READ;
    }
    return new HistoryMessage(schema, documents);
  }

  /** A JSON array of what {@code element} reads. */
  private <T> List<T> array(Supplier<T> element) {
    expect('[');
    List<T> items = new ArrayList<>();
    whitespace();
    if (peek() == ']') {
      pos++;
      return items;
    }
    do {
      whitespace();
      items.add(element.get());
      whitespace();
    } while (more(']'));
    return items;
  }

  private MessageInfo document() {
    expect('{');
    String id = null;
    String requestId = null;
    String correlationId = null;
    String transport = null;
    String clientId = null;
    String filename = null;
    String contentType = null;
    long sizeBytes = 0;
    String sha256 = null;
    Verdict verdict = null;
    List<String> signatures = null;
    Reason reason = null;
    String engine = null;
    String signatureVersion = null;
    boolean cached = false;
    Instant receivedAt = null;
    Instant scannedAt = null;
    long scanMillis = 0;
    long totalMillis = 0;
    String gateway = null;
    boolean redelivered = false;
    Disposition disposition = null;
    DeadLetterReason deadLetterReason = null;
    String traceId = null;
    int seen = 0;
    do {
      whitespace();
      String key = string();
      whitespace();
      expect(':');
      whitespace();
      int bit =
          switch (key) {
            case "id" -> {
              id = stringOrNull();
              yield 1;
            }
            case "requestId" -> {
              requestId = stringOrNull();
              yield 1 << 1;
            }
            case "correlationId" -> {
              correlationId = stringOrNull();
              yield 1 << 2;
            }
            case "transport" -> {
              transport = stringOrNull();
              yield 1 << 3;
            }
            case "clientId" -> {
              clientId = stringOrNull();
              yield 1 << 4;
            }
            case "filename" -> {
              filename = stringOrNull();
              yield 1 << 5;
            }
            case "contentType" -> {
              contentType = stringOrNull();
              yield 1 << 6;
            }
            case "sizeBytes" -> {
              sizeBytes = number();
              yield 1 << 7;
            }
            case "sha256" -> {
              sha256 = stringOrNull();
              yield 1 << 8;
            }
            case "verdict" -> {
              verdict = enumOrNull(Verdict.class);
              yield 1 << 9;
            }
            case "signatures" -> {
              signatures = stringsOrNull();
              yield 1 << 10;
            }
            case "reason" -> {
              reason = enumOrNull(Reason.class);
              yield 1 << 11;
            }
            case "engine" -> {
              engine = stringOrNull();
              yield 1 << 12;
            }
            case "signatureVersion" -> {
              signatureVersion = stringOrNull();
              yield 1 << 13;
            }
            case "cached" -> {
              cached = bool();
              yield 1 << 14;
            }
            case "receivedAt" -> {
              receivedAt = instantOrNull();
              yield 1 << 15;
            }
            case "scannedAt" -> {
              scannedAt = instantOrNull();
              yield 1 << 16;
            }
            case "scanMillis" -> {
              scanMillis = number();
              yield 1 << 17;
            }
            case "totalMillis" -> {
              totalMillis = number();
              yield 1 << 18;
            }
            case "gateway" -> {
              gateway = stringOrNull();
              yield 1 << 19;
            }
            case "redelivered" -> {
              redelivered = bool();
              yield 1 << 20;
            }
            case "disposition" -> {
              disposition = enumOrNull(Disposition.class);
              yield 1 << 21;
            }
            case "deadLetterReason" -> {
              deadLetterReason = enumOrNull(DeadLetterReason.class);
              yield 1 << 22;
            }
            case "traceId" -> {
              traceId = stringOrNull();
              yield 1 << 23;
            }
            default -> throw NOT_READ;
          };
      seen = once(seen, bit);
      whitespace();
    } while (more('}'));
    if ((seen & ALL_FIELDS) != ALL_FIELDS) {
      throw NOT_READ;
    }
    return new MessageInfo(
        id,
        requestId,
        correlationId,
        transport,
        clientId,
        filename,
        contentType,
        sizeBytes,
        sha256,
        verdict,
        signatures,
        reason,
        engine,
        signatureVersion,
        cached,
        receivedAt,
        scannedAt,
        scanMillis,
        totalMillis,
        gateway,
        redelivered,
        disposition,
        deadLetterReason,
        traceId);
  }

  /** A field seen twice is left to the mapper, which has its own rule for that. */
  private static int once(int seen, int bit) {
    if ((seen & bit) != 0) {
      throw NOT_READ;
    }
    return seen | bit;
  }

  /** After a value: true on a comma, false on {@code close}. */
  private boolean more(char close) {
    byte b = next();
    if (b == ',') {
      return true;
    }
    if (b != close) {
      throw NOT_READ;
    }
    return false;
  }

  private List<String> stringsOrNull() {
    return isNull() ? null : array(this::string);
  }

  private <E extends Enum<E>> E enumOrNull(Class<E> type) {
    return isNull() ? null : Enum.valueOf(type, string());
  }

  private Instant instantOrNull() {
    return isNull() ? null : instant(string());
  }

  private String stringOrNull() {
    return isNull() ? null : string();
  }

  /** {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, as {@code ISO_INSTANT} prints an instant. */
  private static Instant instant(String s) {
    int n = s.length();
    if (n < 20
        || s.charAt(4) != '-'
        || s.charAt(7) != '-'
        || s.charAt(10) != 'T'
        || s.charAt(13) != ':'
        || s.charAt(16) != ':'
        || s.charAt(n - 1) != 'Z') {
      throw NOT_READ;
    }
    int hour = digits(s, 11, 2);
    int minute = digits(s, 14, 2);
    int second = digits(s, 17, 2);
    if (hour > 23 || minute > 59 || second > 59) {
      throw NOT_READ;
    }
    int nanos = 0;
    if (n > 20) {
      int fraction = n - 21;
      if (s.charAt(19) != '.' || fraction < 1 || fraction > 9) {
        throw NOT_READ;
      }
      nanos = digits(s, 20, fraction) * POWERS_OF_TEN[9 - fraction];
    }
    long day = LocalDate.of(digits(s, 0, 4), digits(s, 5, 2), digits(s, 8, 2)).toEpochDay();
    return Instant.ofEpochSecond(day * 86_400L + hour * 3600 + minute * 60 + second, nanos);
  }

  private static int digits(String s, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw NOT_READ;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** An integer without fraction or exponent, as the writer writes a {@code long}. */
  private long number() {
    boolean negative = peek() == '-';
    if (negative) {
      pos++;
    }
    int start = pos;
    long value = 0;
    while (pos < in.length && in[pos] >= '0' && in[pos] <= '9') {
      value = Math.addExact(Math.multiplyExact(value, 10), in[pos] - '0');
      pos++;
    }
    int count = pos - start;
    if (count == 0 || (count > 1 && in[start] == '0')) {
      throw NOT_READ;
    }
    if (pos < in.length && (in[pos] == '.' || in[pos] == 'e' || in[pos] == 'E')) {
      throw NOT_READ;
    }
    return negative ? -value : value;
  }

  private boolean bool() {
    if (literal("true")) {
      return true;
    }
    if (literal("false")) {
      return false;
    }
    throw NOT_READ;
  }

  private boolean isNull() {
    return literal("null");
  }

  private boolean literal(String word) {
    int end = pos + word.length();
    if (end > in.length) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (in[pos + i] != word.charAt(i)) {
        return false;
      }
    }
    pos = end;
    return true;
  }

  /** A string: ASCII without escapes straight from the bytes, anything else by the slow path. */
  private String string() {
    expect('"');
    int start = pos;
    while (pos < in.length) {
      byte b = in[pos];
      if (b == '"') {
        pos++;
        return new String(in, start, pos - 1 - start, StandardCharsets.ISO_8859_1);
      }
      if (b == '\\' || b < 0) {
        return escapedOrWide(start);
      }
      if (b < 0x20) {
        throw NOT_READ;
      }
      pos++;
    }
    throw NOT_READ;
  }

  /** The rest of a string holding escapes or multi-byte UTF-8, which must be valid. */
  private String escapedOrWide(int start) {
    StringBuilder text = new StringBuilder(pos - start + 16);
    text.append(new String(in, start, pos - start, StandardCharsets.ISO_8859_1));
    while (true) {
      byte b = next();
      if (b == '"') {
        return text.toString();
      }
      if (b == '\\') {
        text.append(escape());
      } else if (b < 0) {
        int from = pos - 1;
        while (pos < in.length && in[pos] < 0) {
          pos++;
        }
        text.append(utf8(from, pos - from));
      } else if (b < 0x20) {
        throw NOT_READ;
      } else {
        text.append((char) b);
      }
    }
  }

  private char escape() {
    return switch (next()) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '/' -> '/';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'u' -> {
        int c = 0;
        for (int i = 0; i < 4; i++) {
          int digit = Character.digit(next(), 16);
          if (digit < 0) {
            throw NOT_READ;
          }
          c = c * 16 + digit;
        }
        if (Character.isSurrogate((char) c)) {
          throw NOT_READ;
        }
        yield (char) c;
      }
      default -> throw NOT_READ;
    };
  }

  private String utf8(int from, int length) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .decode(ByteBuffer.wrap(in, from, length))
          .toString();
    } catch (CharacterCodingException e) {
      throw NOT_READ;
    }
  }

  private void whitespace() {
    while (pos < in.length) {
      byte b = in[pos];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return;
      }
      pos++;
    }
  }

  private void expect(char c) {
    if (next() != c) {
      throw NOT_READ;
    }
  }

  private byte peek() {
    if (pos >= in.length) {
      throw NOT_READ;
    }
    return in[pos];
  }

  private byte next() {
    byte b = peek();
    pos++;
    return b;
  }
}
