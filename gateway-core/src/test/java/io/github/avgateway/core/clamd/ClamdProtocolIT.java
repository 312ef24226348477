package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A fake clamd that breaks the protocol never gets a CLEAN out of the client. */
class ClamdProtocolIT {

  private static ClamdScanner scannerFor(FakeClamd fake, long maxSize) {
    return ClamdScanner.start(
        ItEnv.settings(fake.endpoint())
            .maxSizeBytes(maxSize)
            .readTimeout(Duration.ofSeconds(5))
            .probeInterval(Duration.ofHours(1))
            .build());
  }

  @Test
  void aDeclaredSizeOverTheLimitSendsNoByte() throws Exception {
    try (FakeClamd fake = FakeClamd.start(FakeClamd.SILENT);
        ClamdScanner scanner = scannerFor(fake, 1024)) {
      InputStream neverRead =
          new InputStream() {
            @Override
            public int read() {
              throw new AssertionError("the payload must not be read");
            }
          };
      ScanReport report = scanner.scan(neverRead, 1025);
      assertThat(report.verdict()).isEqualTo(Verdict.UNSCANNABLE);
      assertThat(report.reason()).isEqualTo(Reason.TOO_LARGE);
      assertThat(scanner.scan(ScanContent.of(new byte[1025])).reason()).isEqualTo(Reason.TOO_LARGE);
      assertThat(fake.received())
          .as("the upkeep may ask for the version, but no INSTREAM starts")
          .doesNotContain("zINSTREAM");
    }
  }

  @Test
  void anOkBeforeTheWholePayloadWasSentIsAnError() throws Exception {
    try (FakeClamd fake = FakeClamd.start(FakeClamd.answersEarly("{id}: stream: OK"));
        ClamdScanner scanner = scannerFor(fake, 64 << 20)) {
      byte[] payload = new byte[8 << 20];
      ScanReport report = scanner.scan(new ByteArrayInputStream(payload), payload.length);
      assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.ERROR);
      assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{next}: stream: OK\0", // the reply of another command
        "stream: OK\0", // no session id
        "{id}: stream: O", // cut in the middle, then closed
        "", // closed without a word
        "{id}: stream: OKAY\0", // not a reply clamd sends
        "{id}: \0", // empty
        "{id}: PONG\0", // an answer to something else
        "{id}: stream: Can't create temporary file ERROR\0" // clamd's own error
      })
  void repliesOutOfProtocolAreErrors(String wire) throws Exception {
    try (FakeClamd fake = FakeClamd.start(FakeClamd.answersAfterStream(wire));
        ClamdScanner scanner = scannerFor(fake, 1 << 20)) {
      ScanReport report = scanner.scan(ScanContent.of(ItEnv.randomBytes(1000, 1)));
      assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.ERROR);
      assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
      assertThat(report.detail()).isNotBlank().doesNotContain("did not answer");
    }
  }
}
