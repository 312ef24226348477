package io.github.avgateway.core.wire;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The request headers (AMQP) or properties (JMS) that a dead-letter cannot carry as they are, kept
 * in one JSON object under {@link WireNames#ORIGINAL_HEADERS}, so that building a dead-letter never
 * fails on what a caller sent and nothing the caller sent is dropped silently. Each transport
 * decides which headers need it (JMS: names that are not Java identifiers, values of types a JMS
 * property cannot hold; both: names the gateway's own dead-letter headers use, values longer than
 * {@link #MAX_VALUE_CHARS}).
 *
 * <p>Member name = the header's original name; member value = a JSON string, number or boolean for
 * a string, number or boolean; {@code {"truncated":"<first 4096 characters>","length":N}} for a
 * longer string; {@code {"base64":"…","length":N}} for bytes (at most the first 3,072 bytes are
 * encoded, {@code length} is the original's); {@code {"type":"<Java class>","text":"…"}} for
 * anything else (its {@code toString}, cut like a string); {@code {"unreadable":"<why>"}} for a
 * header whose value could not be read. Not thread-safe.
 */
public final class OriginalHeaders {

  /** Longest string value carried whole, and as a header of its own, in characters. */
  public static final int MAX_VALUE_CHARS = 4096;

  /** Most bytes of a bytes value carried (base64 makes them {@link #MAX_VALUE_CHARS} long). */
  public static final int MAX_VALUE_BYTES = MAX_VALUE_CHARS / 4 * 3;

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private final Map<String, Object> carried = new LinkedHashMap<>();

  /** Whether {@code value} is small enough to be carried as a header of its own. */
  public static boolean fitsAsIs(Object value) {
    return switch (value) {
      case CharSequence text -> text.length() <= MAX_VALUE_CHARS;
      case byte[] bytes -> bytes.length <= MAX_VALUE_BYTES;
      case null, default -> true;
    };
  }

  /** Adds {@code name} with {@code value} (any type, null included) to the JSON object. */
  public void carry(String name, Object value) {
    carried.put(name, jsonValue(value));
  }

  /** Adds {@code name}, whose value could not be read, with the reason. */
  public void carryUnreadable(String name, String why) {
    carried.put(name, Map.of("unreadable", String.valueOf(why)));
  }

  public boolean isEmpty() {
    return carried.isEmpty();
  }

  /** The JSON object of every header {@linkplain #carry carried}. */
  public String toJson() {
    return MAPPER.writeValueAsString(carried);
  }

  /**
   * Reads an {@code avOriginalHeaders} value back: names in their original order, values as {@code
   * String}, {@code Number}, {@code Boolean}, null, or a {@code Map} for the object forms.
   *
   * @throws IllegalArgumentException when {@code json} is not such an object
   */
  public static Map<String, Object> decode(String json) {
    try {
      return Collections.unmodifiableMap(
          MAPPER.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() {}));
    } catch (JacksonException e) {
      throw new IllegalArgumentException("not an avOriginalHeaders object: " + e.getMessage(), e);
    }
  }

  private static Object jsonValue(Object value) {
    return switch (value) {
      case null -> null;
      case Boolean flag -> flag;
      case Number number -> number(number);
      case Character character -> character.toString();
      case byte[] bytes -> bytes(bytes);
      case CharSequence text -> text(text.toString());
      default -> other(value);
    };
  }

  private static Object number(Number number) {
    if (number instanceof Double || number instanceof Float) {
      return Double.isFinite(number.doubleValue()) ? number : number.toString();
    }
    boolean plain =
        number instanceof Byte
            || number instanceof Short
            || number instanceof Integer
            || number instanceof Long
            || number instanceof BigInteger
            || number instanceof BigDecimal;
    return plain ? number : other(number);
  }

  private static Object text(String text) {
    if (text.length() <= MAX_VALUE_CHARS) {
      return text;
    }
    Map<String, Object> cut = new LinkedHashMap<>();
    cut.put("truncated", text.substring(0, MAX_VALUE_CHARS));
    cut.put("length", text.length());
    return cut;
  }

  private static Map<String, Object> bytes(byte[] bytes) {
    int kept = Math.min(bytes.length, MAX_VALUE_BYTES);
    Map<String, Object> encoded = new LinkedHashMap<>();
    encoded.put("base64", Base64.getEncoder().encodeToString(Arrays.copyOf(bytes, kept)));
    encoded.put("length", bytes.length);
    return encoded;
  }

  private static Map<String, Object> other(Object value) {
    String text = String.valueOf(value);
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("type", value.getClass().getName());
    described.put(
        "text", text.length() <= MAX_VALUE_CHARS ? text : text.substring(0, MAX_VALUE_CHARS));
    return described;
  }
}
