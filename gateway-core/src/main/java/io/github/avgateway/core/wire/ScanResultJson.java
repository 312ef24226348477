package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.ScanResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reply body: a {@link ScanResult} as UTF-8 JSON (docs/architecture.md, "Wire contract"), field
 * names as the record's components, timestamps as ISO-8601 strings, absent values as {@code null}.
 * Thread-safe.
 */
public final class ScanResultJson {

  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .build();

  private ScanResultJson() {}

  /** The reply body of {@code result}, written by the Jackson mapper. */
  public static byte[] encode(ScanResult result) {
    return MAPPER.writeValueAsBytes(result);
  }

  /**
   * Reads a reply body. Unknown fields are ignored and absent numbers read as 0, so that callers
   * keep working when a newer gateway adds or drops a field.
   *
   * @throws IllegalArgumentException when the body is not a reply
   */
  public static ScanResult decode(byte[] body) {
    try {
      return MAPPER.readValue(body, ScanResult.class);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("not an av-gateway reply: " + e.getOriginalMessage(), e);
    }
  }
}
