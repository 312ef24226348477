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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
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

  /**
   * clamd stopped (SIGTERM) and started again three times under eight threads scanning small files
   * back to back, as the fault scenario {@code clamdStoppedAndStarted} does behind a gateway: every
   * scan that failed failed with clamd marked down during it (what the transports read to hold the
   * request and scan it again), never with the endpoint up throughout. A stopping clamd refuses the
   * INSTREAMs it has just received ({@code Error processing command. ERROR}); those scans were
   * answered ERROR at once, before any scan had marked clamd down. Scans start only while the
   * endpoint is up, as a transport takes requests only while intake is open.
   */
  @Test
  void aScanThatFailsWhileClamdStopsFindsItMarkedDown() throws Exception {
    int threads = 8;
    try (PrivateClamd clamd = PrivateClamd.start(Map.of());
        ClamdScanner scanner =
            ClamdScanner.start(
                ItEnv.settings(clamd.endpoint())
                    .poolSize(threads)
                    .probeInterval(Duration.ofMillis(100))
                    .build())) {
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicInteger answered = new AtomicInteger();
      AtomicInteger failed = new AtomicInteger();
      List<ScanReport> unheld = new CopyOnWriteArrayList<>();
      List<Thread> scanning = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        byte[] payload = ItEnv.randomBytes(1024 + 512 * t, 10 + t);
        scanning.add(
            Thread.ofPlatform()
                .name("scan-" + t)
                .start(() -> {
                  while (running.get()) {
                    long markedDown = scanner.markedDown();
                    if (scanner.availability() instanceof Availability.Down) {
                      LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
                      continue;
                    }
                    ScanReport report = scanner.scan(ScanContent.of(payload));
                    if (report.verdict() == Verdict.CLEAN) {
                      answered.incrementAndGet();
                    } else {
                      failed.incrementAndGet();
                      if (scanner.markedDown() == markedDown) {
                        unheld.add(report);
                      }
                    }
                  }
                }));
      }
      try {
        for (int outage = 0; outage < 3; outage++) {
          LockSupport.parkNanos(Duration.ofMillis(700).toNanos());
          clamd.stop();
          LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
          clamd.launch();
        }
        LockSupport.parkNanos(Duration.ofMillis(700).toNanos());
      } finally {
        running.set(false);
        for (Thread thread : scanning) {
          thread.join(Duration.ofSeconds(30));
        }
      }
      assertThat(unheld)
          .as(
              "failed scans (of %d failed, %d clean) with clamd never marked down",
              failed.get(), answered.get())
          .isEmpty();
      assertThat(answered.get()).isPositive();
      assertThat(scanner.scan(ScanContent.of(new byte[1])).verdict()).isEqualTo(Verdict.CLEAN);
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
