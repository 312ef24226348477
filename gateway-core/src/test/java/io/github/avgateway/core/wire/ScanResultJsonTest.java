package io.github.avgateway.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScanResultJsonTest {

  private final ScanResult infected =
      new ScanResult(
          "m1",
          "c1",
          Verdict.INFECTED,
          List.of("Eicar-Test-Signature"),
          null,
          null,
          "ab12",
          68,
          "ClamAV 1.4.6",
          "27451",
          false,
          Instant.parse("2026-11-22T10:00:00Z"),
          3,
          "gw-1");

  @Test
  void encodesTheContractFieldsInOrder() {
    String json = new String(ScanResultJson.encode(infected), StandardCharsets.UTF_8);

    assertThat(json)
        .isEqualTo(
            "{\"requestId\":\"m1\",\"correlationId\":\"c1\",\"verdict\":\"INFECTED\","
                + "\"signatures\":[\"Eicar-Test-Signature\"],\"reason\":null,\"detail\":null,"
                + "\"sha256\":\"ab12\",\"sizeBytes\":68,\"engine\":\"ClamAV 1.4.6\","
                + "\"signatureVersion\":\"27451\",\"cached\":false,"
                + "\"scannedAt\":\"2026-11-22T10:00:00Z\",\"scanMillis\":3,\"gateway\":\"gw-1\"}");
  }

  @Test
  void decodesWhatItEncodesAndIgnoresUnknownFields() {
    assertThat(ScanResultJson.decode(ScanResultJson.encode(infected))).isEqualTo(infected);

    byte[] newer =
        ("{\"requestId\":\"m2\",\"verdict\":\"UNSCANNABLE\",\"reason\":\"ENCRYPTED\","
                + "\"scannedAt\":\"2026-11-22T10:00:00Z\",\"futureField\":1}")
            .getBytes(StandardCharsets.UTF_8);
    ScanResult decoded = ScanResultJson.decode(newer);
    assertThat(decoded.reason()).isEqualTo(Reason.ENCRYPTED);
    assertThat(decoded.signatures()).isEmpty();
  }

  @Test
  void rejectsABodyThatIsNoReply() {
    assertThatThrownBy(() -> ScanResultJson.decode("not json".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an av-gateway reply");
  }
}
