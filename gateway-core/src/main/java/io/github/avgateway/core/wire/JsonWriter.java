package io.github.avgateway.core.wire;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Writes the gateway's own JSON bodies (the reply, the history message) straight to UTF-8 bytes,
 * exactly as the Jackson mapper of {@link ScanResultJson} writes the same records: fields in the
 * records' component order, absent values as {@code null}, enums by name, timestamps as ISO-8601
 * ({@link java.time.format.DateTimeFormatter#ISO_INSTANT}), strings escaped as Jackson escapes them
 * (quote, backslash and control characters; everything else as UTF-8). Jackson spent a fifth of a
 * consumer thread's CPU on these two bodies, most of it in reflection-driven serializers and the
 * timestamp formatter. A string holding a lone surrogate has no UTF-8 form: writing one throws
 * {@link Unencodable}, and {@link #write(int, Consumer, Supplier)} falls back to Jackson. Not
 * thread-safe: one per body.
 */
final class JsonWriter {

  /** A string with a lone surrogate, which only Jackson's own handling should write. */
  private static final class Unencodable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unencodable() {
      super("a string holds a lone surrogate", null, false, false);
    }
  }

  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

  private byte[] buf;
  private int len;

  JsonWriter(int capacity) {
    buf = new byte[capacity];
  }

  /**
   * The bytes {@code body} writes into a new writer, or {@code fallback}'s when a string it writes
   * has no UTF-8 form (a lone surrogate): the one place that decides when Jackson writes instead.
   */
  static byte[] write(int capacity, Consumer<JsonWriter> body, Supplier<byte[]> fallback) {
    JsonWriter out = new JsonWriter(capacity);
    try {
      body.accept(out);
    } catch (Unencodable e) {
      return fallback.get();
    }
    return out.toBytes();
  }

  /** The bytes written so far. */
  byte[] toBytes() {
    return Arrays.copyOf(buf, len);
  }

  JsonWriter beginObject() {
    separate();
    put('{');
    return this;
  }

  JsonWriter endObject() {
    put('}');
    return this;
  }

  JsonWriter beginArray() {
    separate();
    put('[');
    return this;
  }

  JsonWriter endArray() {
    put(']');
    return this;
  }

  /** A field's name; its value follows. Names are the records' ASCII component names. */
  JsonWriter name(String name) {
    separate();
    int n = name.length();
    ensure(n + 3);
    buf[len++] = '"';
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) name.charAt(i);
    }
    buf[len++] = '"';
    buf[len++] = ':';
    return this;
  }

  JsonWriter field(String name, String value) {
    return name(name).value(value);
  }

  JsonWriter field(String name, long value) {
    return name(name).value(value);
  }

  JsonWriter field(String name, boolean value) {
    name(name);
    putAll(value ? TRUE : FALSE);
    return this;
  }

  JsonWriter field(String name, Enum<?> value) {
    return name(name).value(value == null ? null : value.name());
  }

  JsonWriter field(String name, Instant value) {
    name(name);
    if (value == null) {
      putAll(NULL);
    } else {
      instant(value);
    }
    return this;
  }

  JsonWriter field(String name, List<String> values) {
    name(name);
    if (values == null) {
      putAll(NULL);
      return this;
    }
    put('[');
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        put(',');
      }
      string(values.get(i));
    }
    put(']');
    return this;
  }

  JsonWriter value(long value) {
    separate();
    String digits = Long.toString(value);
    for (int i = 0; i < digits.length(); i++) {
      put(digits.charAt(i));
    }
    return this;
  }

  JsonWriter value(String value) {
    separate();
    if (value == null) {
      putAll(NULL);
    } else {
      string(value);
    }
    return this;
  }

  /** A comma unless this value opens its object or array, or follows its field's name. */
  private void separate() {
    if (len > 0) {
      byte last = buf[len - 1];
      if (last != '{' && last != '[' && last != ':') {
        put(',');
      }
    }
  }

  private void string(String value) {
    int n = value.length();
    if (plainAscii(value, n)) {
      ensure(n + 2);
      buf[len++] = '"';
      for (int i = 0; i < n; i++) {
        buf[len++] = (byte) value.charAt(i);
      }
      buf[len++] = '"';
      return;
    }
    put('"');
    for (int i = 0; i < n; i++) {
      ensure(6);
      char c = value.charAt(i);
      if (c < 0x80) {
        ascii(c);
      } else if (c < 0x800) {
        buf[len++] = (byte) (0xC0 | (c >> 6));
        buf[len++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c)
            || i + 1 >= n
            || !Character.isLowSurrogate(value.charAt(i + 1))) {
          throw new Unencodable();
        }
        int code = Character.toCodePoint(c, value.charAt(++i));
        buf[len++] = (byte) (0xF0 | (code >> 18));
        buf[len++] = (byte) (0x80 | ((code >> 12) & 0x3F));
        buf[len++] = (byte) (0x80 | ((code >> 6) & 0x3F));
        buf[len++] = (byte) (0x80 | (code & 0x3F));
      } else {
        buf[len++] = (byte) (0xE0 | (c >> 12));
        buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        buf[len++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    put('"');
  }

  /** Whether every character is printable ASCII that needs no escape (ids, hashes, names). */
  private static boolean plainAscii(String value, int n) {
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /** One ASCII character of a string, escaped as Jackson escapes it. */
  private void ascii(char c) {
    if (c >= 0x20 && c != '"' && c != '\\') {
      buf[len++] = (byte) c;
      return;
    }
    buf[len++] = '\\';
    switch (c) {
      case '"' -> buf[len++] = '"';
      case '\\' -> buf[len++] = '\\';
      case '\b' -> buf[len++] = 'b';
      case '\t' -> buf[len++] = 't';
      case '\f' -> buf[len++] = 'f';
      case '\n' -> buf[len++] = 'n';
      case '\r' -> buf[len++] = 'r';
      default -> {
        buf[len++] = 'u';
        buf[len++] = '0';
        buf[len++] = '0';
        buf[len++] = HEX[c >> 4];
        buf[len++] = HEX[c & 0xF];
      }
    }
  }

  /** ISO-8601 in UTC with 0, 3, 6 or 9 fraction digits, as {@code ISO_INSTANT} prints it. */
  private void instant(Instant value) {
    long seconds = value.getEpochSecond();
    LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, 86_400L));
    if (date.getYear() < 0 || date.getYear() > 9999) {
      string(value.toString());
      return;
    }
    int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
    ensure(32);
    put('"');
    digits(date.getYear(), 4);
    put('-');
    digits(date.getMonthValue(), 2);
    put('-');
    digits(date.getDayOfMonth(), 2);
    put('T');
    digits(secondOfDay / 3600, 2);
    put(':');
    digits(secondOfDay / 60 % 60, 2);
    put(':');
    digits(secondOfDay % 60, 2);
    int nanos = value.getNano();
    if (nanos > 0) {
      put('.');
      if (nanos % 1_000_000 == 0) {
        digits(nanos / 1_000_000, 3);
      } else if (nanos % 1000 == 0) {
        digits(nanos / 1000, 6);
      } else {
        digits(nanos, 9);
      }
    }
    put('Z');
    put('"');
  }

  private void digits(int value, int width) {
    ensure(width);
    for (int i = width - 1; i >= 0; i--) {
      buf[len + i] = (byte) ('0' + value % 10);
      value /= 10;
    }
    len += width;
  }

  private void put(char c) {
    ensure(1);
    buf[len++] = (byte) c;
  }

  private void putAll(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, len, bytes.length);
    len += bytes.length;
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }
}
