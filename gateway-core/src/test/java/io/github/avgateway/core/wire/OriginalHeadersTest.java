package io.github.avgateway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OriginalHeadersTest {

  @Test
  void carriedHeadersDecodeBackUnderTheirOriginalNamesInOrder() {
    OriginalHeaders headers = new OriginalHeaders();
    headers.carry("destination-type", "ANYCAST");
    headers.carry("content-length", "12");
    headers.carry("x.count", 7);
    headers.carry("big long", 9_000_000_000L);
    headers.carry("ratio", 0.5);
    headers.carry("flag?", true);
    headers.carry("nothing", null);
    headers.carry("quote\"and\nnewline", "line1\nline2 \"quoted\" ü");

    Map<String, Object> decoded = OriginalHeaders.decode(headers.toJson());

    assertThat(decoded.keySet())
        .containsExactly(
            "destination-type",
            "content-length",
            "x.count",
            "big long",
            "ratio",
            "flag?",
            "nothing",
            "quote\"and\nnewline");
    assertThat(decoded)
        .containsEntry("destination-type", "ANYCAST")
        .containsEntry("content-length", "12")
        .containsEntry("x.count", 7)
        .containsEntry("big long", 9_000_000_000L)
        .containsEntry("ratio", 0.5)
        .containsEntry("flag?", true)
        .containsEntry("nothing", null)
        .containsEntry("quote\"and\nnewline", "line1\nline2 \"quoted\" ü");
  }

  @Test
  void aLongStringIsCutAndSaysHowLongItWas() {
    String longValue = "a".repeat(OriginalHeaders.MAX_VALUE_CHARS) + "tail";
    OriginalHeaders headers = new OriginalHeaders();
    headers.carry("long", longValue);

    Object decoded = OriginalHeaders.decode(headers.toJson()).get("long");

    assertThat(decoded)
        .isEqualTo(
            Map.of(
                "truncated", "a".repeat(OriginalHeaders.MAX_VALUE_CHARS),
                "length", longValue.length()));
    assertThat(OriginalHeaders.fitsAsIs(longValue)).isFalse();
    assertThat(OriginalHeaders.fitsAsIs("a".repeat(OriginalHeaders.MAX_VALUE_CHARS))).isTrue();
  }

  @Test
  void bytesAreBase64WithTheirLengthAndOtherTypesTheirText() {
    byte[] bytes = "raw".getBytes(StandardCharsets.UTF_8);
    byte[] many = new byte[OriginalHeaders.MAX_VALUE_BYTES + 10];
    OriginalHeaders headers = new OriginalHeaders();
    headers.carry("bytes", bytes);
    headers.carry("many", many);
    headers.carry("char", 'x');
    headers.carry("list", List.of(1, 2));
    headers.carry("nan", Double.NaN);

    Map<String, Object> decoded = OriginalHeaders.decode(headers.toJson());

    assertThat(decoded.get("bytes")).isEqualTo(Map.of("base64", "cmF3", "length", 3));
    @SuppressWarnings("unchecked")
    Map<String, Object> manyDecoded = (Map<String, Object>) decoded.get("many");
    assertThat(Base64.getDecoder().decode((String) manyDecoded.get("base64")))
        .hasSize(OriginalHeaders.MAX_VALUE_BYTES);
    assertThat(manyDecoded).containsEntry("length", many.length);
    assertThat(decoded.get("char")).isEqualTo("x");
    assertThat(decoded.get("list"))
        .isEqualTo(Map.of("type", List.of(1, 2).getClass().getName(), "text", "[1, 2]"));
    assertThat(decoded.get("nan")).isEqualTo("NaN");
    assertThat(OriginalHeaders.fitsAsIs(many)).isFalse();
    assertThat(OriginalHeaders.fitsAsIs(7)).isTrue();
  }

  @Test
  void somethingElseIsNotDecoded() {
    assertThatThrownBy(() -> OriginalHeaders.decode("[1]"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new OriginalHeaders().isEmpty()).isTrue();
  }
}
