package io.github.avgateway.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScanReportTest {

  private static final EngineVersion ENGINE = new EngineVersion("ClamAV 1.4.6", "");

  @Test
  void cleanCannotCarrySignaturesOrReason() {
    assertThatThrownBy(() -> new ScanReport(Verdict.CLEAN, List.of("x"), null, null, ENGINE, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new ScanReport(Verdict.CLEAN, List.of(), Reason.SCAN_FAILED, null, ENGINE, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void infectedNeedsASignature() {
    assertThatThrownBy(() -> ScanReport.infected(List.of(), ENGINE, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reasonDecidesBetweenUnscannableAndError() {
    assertThat(
            ScanReport.notClean(Reason.ENCRYPTED, "Heuristics.Encrypted.Zip", ENGINE, 1).verdict())
        .isEqualTo(Verdict.UNSCANNABLE);
    assertThat(ScanReport.notClean(Reason.SCAN_FAILED, "timeout", ENGINE, 1).verdict())
        .isEqualTo(Verdict.ERROR);
    assertThatThrownBy(
            () -> new ScanReport(Verdict.ERROR, List.of(), Reason.TOO_LARGE, null, ENGINE, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void requestNeedsAnIdAndTransport() {
    assertThatThrownBy(() ->
            new ScanRequest(
                " ",
                null,
                "jms",
                null,
                null,
                null,
                java.time.Instant.EPOCH,
                false,
                ScanContent.of(new byte[0])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("requestId");
  }
}
