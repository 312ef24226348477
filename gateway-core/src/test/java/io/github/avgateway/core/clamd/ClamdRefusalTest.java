package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A clamd that is stopping (SIGTERM) answers the INSTREAM it has just received with a refusal
 * instead of a verdict, then closes the session: clamd 1.4 sends {@code <id>: Error processing
 * command. ERROR}, sometimes {@code <id>: PROTOCOL ERROR: ancillary data sent without FILDES.
 * ERROR} as well, when it can no longer hand the stream to a scanning thread. Such a scan was
 * answered ERROR {@code SCAN_FAILED} at once, with no retry and no endpoint marked down, so a
 * transport whose intake had not closed yet replied ERROR for a file clamd never looked at. It is
 * now retried on a new connection like a session cut by a restart: CLEAN when clamd answers there
 * (after the whole payload), and the endpoint marked down (intake pauses, the request is held) when
 * clamd is gone. The fake clamd's real sockets make the race deterministic: the refusal comes on
 * the pooled session, and the next connection finds clamd back, or gone.
 */
class ClamdRefusalTest {

  private static ClamdScanner scannerFor(FakeClamd fake) {
    return ClamdScanner.start(
        ItEnv.settings(fake.endpoint())
            .readTimeout(Duration.ofSeconds(5))
            .probeInterval(Duration.ofHours(1))
            .versionRefresh(Duration.ofHours(1))
            .build());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Error processing command. ERROR",
        "PROTOCOL ERROR: ancillary data sent without FILDES. ERROR"
      })
  void aScanClamdRefusedIsRetriedOnANewConnection(String refusal) throws Exception {
    try (FakeClamd fake =
            FakeClamd.start(
                FakeClamd.answersStreamsInTurn("{id}: " + refusal + "\0", "{id}: stream: OK\0"));
        ClamdScanner scanner = scannerFor(fake)) {
      ScanReport report = scanner.scan(ScanContent.of(ItEnv.randomBytes(1000, 1)));

      assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.CLEAN);
      assertThat(fake.received().split("zINSTREAM", -1))
          .as("two INSTREAMs: the refused one and the retry")
          .hasSize(3);
      assertThat(scanner.markedDown()).as("a retry that was answered marks nothing down").isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Error processing command. ERROR",
        "PROTOCOL ERROR: ancillary data sent without FILDES. ERROR"
      })
  void aScanClamdRefusedBeforeGoingAwayMarksTheEndpointDown(String refusal) throws Exception {
    // The retry's new connection is accepted and closed without a word, as a proxy in front of the
    // stopped clamd does.
    try (FakeClamd fake =
            FakeClamd.start(FakeClamd.answersStreamsInTurn("{id}: " + refusal + "\0", ""));
        ClamdScanner scanner = scannerFor(fake)) {
      ScanReport report = scanner.scan(ScanContent.of(ItEnv.randomBytes(1000, 2)));

      assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.ERROR);
      assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
      assertThat(report.detail()).contains("the retry on a new session failed too");
      assertThat(scanner.markedDown())
          .as("clamd marked down, so that intake pauses and the request is held")
          .isEqualTo(1);
      assertThat(scanner.availability()).isInstanceOf(Availability.Down.class);
    }
  }
}
