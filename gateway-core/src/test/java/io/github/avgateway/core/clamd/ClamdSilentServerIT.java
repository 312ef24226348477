package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A server that accepts and never answers costs one read timeout, then an ERROR; one that accepts
 * and closes every connection (a proxy in front of a stopped clamd) is an ERROR at once; both mark
 * the endpoint down, so that front-ends pause.
 */
class ClamdSilentServerIT {

  private static final Duration READ_TIMEOUT = Duration.ofMillis(1500);

  private static ClamdScanner scannerFor(FakeClamd fake) {
    return ClamdScanner.start(
        ItEnv.settings(fake.endpoint())
            .readTimeout(READ_TIMEOUT)
            .probeInterval(Duration.ofHours(1))
            // No version refresh on a second connection while a test runs: the fake records the
            // bytes of all connections in one log, where they would interleave with the scan's.
            .versionRefresh(Duration.ofHours(1))
            .build());
  }

  @Test
  void aServerThatReadsButNeverAnswersIsAnErrorWithinTheReadTimeout() throws Exception {
    try (FakeClamd fake = FakeClamd.start(FakeClamd.SILENT);
        ClamdScanner scanner = scannerFor(fake)) {
      long started = System.nanoTime();
      ScanReport report = scanner.scan(ScanContent.of(ItEnv.randomBytes(1024, 1)));
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      assertThat(report.verdict()).isEqualTo(Verdict.ERROR);
      assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
      assertThat(report.detail()).contains("did not answer within 1500ms");
      assertThat(took)
          .as("one read timeout: a silent clamd is not retried")
          .isBetween(READ_TIMEOUT, READ_TIMEOUT.multipliedBy(2).minusMillis(100));
      assertThat(scanner.availability()).isInstanceOf(Availability.Down.class);
    }
  }

  @Test
  void aServerThatStopsReadingCutsTheStreamWithinTheReadTimeout() throws Exception {
    try (FakeClamd fake = FakeClamd.start(FakeClamd.VERSION_THEN_DEAF);
        ClamdScanner scanner = scannerFor(fake)) {
      long started = System.nanoTime();
      ScanReport report = scanner.scan(ScanContent.of(new byte[16 * 1024 * 1024]));
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      assertThat(report.verdict()).isEqualTo(Verdict.ERROR);
      assertThat(report.detail()).contains("took no data for");
      assertThat(took).isBetween(READ_TIMEOUT, READ_TIMEOUT.multipliedBy(2).minusMillis(100));
      assertThat(fake.received()).contains("zINSTREAM");
    }
  }

  @Test
  void aServerThatClosesEveryConnectionAtOnceIsMarkedDown() throws Exception {
    try (FakeClamd fake = FakeClamd.start((in, out, closed) -> {});
        ClamdScanner scanner = scannerFor(fake)) {
      ScanReport report = scanner.scan(ScanContent.of(ItEnv.randomBytes(1024, 2)));

      assertThat(report.verdict()).isEqualTo(Verdict.ERROR);
      assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
      assertThat(scanner.availability()).isInstanceOf(Availability.Down.class);
    }
  }
}
