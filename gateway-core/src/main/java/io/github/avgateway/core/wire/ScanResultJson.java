package io.github.avgateway.core.wire;

import io.github.avgateway.core.model.ScanResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reply body: a {@link ScanResult} as UTF-8 JSON (design §3), field names as the record's
 * components, timestamps as ISO-8601 strings, absent values as {@code null}. Thread-safe.
 */
public final class ScanResultJson {

  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .build();

  private ScanResultJson() {}

  /**
   * The reply body of {@code result}: written by {@link JsonWriter}, byte for byte what the Jackson
   * mapper writes (checked by {@code ScanResultJsonTest}), and by the mapper itself for a string no
   * UTF-8 can hold.
   */
  public static byte[] encode(ScanResult result) {
    return JsonWriter.write(512, out -> write(out, result), () -> jackson(result));
  }

  /** The reply body as the Jackson mapper writes it: the reference for {@link #encode}. */
  static byte[] jackson(ScanResult result) {
    return MAPPER.writeValueAsBytes(result);
  }

  private static void write(JsonWriter out, ScanResult r) {
    out.beginObject()
        .field("requestId", r.requestId())
        .field("correlationId", r.correlationId())
        .field("verdict", r.verdict())
        .field("signatures", r.signatures())
        .field("reason", r.reason())
        .field("detail", r.detail())
        .field("sha256", r.sha256())
        .field("sizeBytes", r.sizeBytes())
        .field("engine", r.engine())
        .field("signatureVersion", r.signatureVersion())
        .field("cached", r.cached())
        .field("scannedAt", r.scannedAt())
        .field("scanMillis", r.scanMillis())
        .field("gateway", r.gateway())
        .endObject();
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
