package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.testing.PrivateClamd;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A private clamd is stopped and started again under a running client. */
class ClamdRestartIT {

  @Test
  void whileClamdIsStoppedScansAreErrorsAndTheyRecoverAfterItsRestart() throws Exception {
    byte[] clean = ItEnv.randomBytes(4096, 1);
    try (PrivateClamd clamd = PrivateClamd.start(Map.of());
        ClamdScanner scanner = ClamdScanner.start(ItEnv.settings(clamd.endpoint()).build())) {
      assertThat(scanner.scan(ScanContent.of(clean)).verdict()).isEqualTo(Verdict.CLEAN);
      long markedDown = scanner.markedDown();

      clamd.stop();
      assertEveryScanIsAnError(scanner, clean, clamd.endpoint());
      assertThat(scanner.markedDown())
          .as("one mark-down for the one outage")
          .isEqualTo(markedDown + 1);
      assertThat(scanner.availability())
          .isInstanceOfSatisfying(
              Availability.Down.class,
              down -> assertThat(down.why()).contains("no clamd endpoint is up"));

      clamd.launch();
      await("scans recover after clamd's restart")
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(() -> {
            ScanReport report = scanner.scan(ScanContent.of(clean));
            assertThat(report.verdict()).isEqualTo(Verdict.CLEAN);
          });
      assertThat(scanner.availability()).isEqualTo(Availability.up());
      assertThat(scanner.markedDown())
          .as("still counted once clamd is back, so a scan that failed meanwhile can tell")
          .isEqualTo(markedDown + 1);
      assertThat(scanner.scan(ScanContent.of(SelfTestProbes.eicar())).verdict())
          .isEqualTo(Verdict.INFECTED);
    }
  }

  private static void assertEveryScanIsAnError(
      ClamdScanner scanner, byte[] clean, ClamdEndpoint endpoint) {
    for (int i = 0; i < 20; i++) {
      ScanReport report =
          i % 2 == 0
              ? scanner.scan(new ByteArrayInputStream(clean), clean.length)
              : scanner.scan(ScanContent.of(clean));
      assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.ERROR);
      assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
      assertThat(report.detail()).contains(endpoint.toString());
    }
  }

  @Test
  void clamdsOwnStreamLimitIsTooLarge() throws Exception {
    try (PrivateClamd clamd = PrivateClamd.start(Map.of("StreamMaxLength", "1M"));
        ClamdScanner scanner =
            ClamdScanner.start(ItEnv.settings(clamd.endpoint()).maxSizeBytes(4 << 20).build())) {
      byte[] payload = ItEnv.randomBytes(2 << 20, 2);
      ScanReport report = scanner.scan(new ByteArrayInputStream(payload), payload.length);
      assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.UNSCANNABLE);
      assertThat(report.reason()).isEqualTo(Reason.TOO_LARGE);
      assertThat(report.detail()).contains("INSTREAM size limit exceeded");
      assertThat(scanner.scan(ScanContent.of(SelfTestProbes.eicar())).verdict())
          .isEqualTo(Verdict.INFECTED);
    }
  }
}
