package io.github.avgateway.core.pipe;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ForwardHeadersTest {

  private static final Instant AT = Instant.parse("2026-11-25T10:00:00.125Z");

  private static ScanResult result(
      Verdict verdict, List<String> signatures, Reason reason, String sha256, String sigVersion) {
    return new ScanResult(
        "r1",
        "r1",
        verdict,
        signatures,
        reason,
        null,
        sha256,
        3,
        "ClamAV 1.4.6",
        sigVersion,
        false,
        AT,
        1,
        "gw");
  }

  @Test
  void cleanCarriesVerdictTimeHashAndEngine() {
    var headers = ForwardHeaders.of(result(Verdict.CLEAN, List.of(), null, "ab12", "27001"));

    assertThat(headers)
        .containsExactly(
            java.util.Map.entry("avVerdict", "CLEAN"),
            java.util.Map.entry("avScannedAt", "2026-11-25T10:00:00.125Z"),
            java.util.Map.entry("avSha256", "ab12"),
            java.util.Map.entry("avEngine", "ClamAV 1.4.6/27001"));
  }

  @Test
  void infectedCarriesTheFirstSignature() {
    var headers =
        ForwardHeaders.of(
            result(Verdict.INFECTED, List.of("Eicar-Sig", "Other"), null, "ab12", ""));

    assertThat(headers).containsEntry("avSignature", "Eicar-Sig").doesNotContainKey("avReason");
    assertThat(headers).containsEntry("avEngine", "ClamAV 1.4.6");
  }

  @Test
  void unscannableCarriesTheReasonAndNoHashWhenTheBodyWasNotRead() {
    var headers =
        ForwardHeaders.of(result(Verdict.UNSCANNABLE, List.of(), Reason.TOO_LARGE, null, null));

    assertThat(headers)
        .containsEntry("avVerdict", "UNSCANNABLE")
        .containsEntry("avReason", "TOO_LARGE")
        .doesNotContainKeys("avSha256", "avSignature");
    assertThat(ForwardHeaders.NAMES).containsAll(headers.keySet());
  }
}
