package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.testing.TcpProxy;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pooled sessions cut under the client (a TCP proxy drops them, as a clamd restart or a firewall
 * would): the scan is retried once on a new connection when its payload can be sent again, and
 * answered ERROR, never CLEAN, when it cannot.
 */
class ClamdRetryIT {

  private static final int CHUNK = 64 * 1024;

  private TcpProxy proxy;
  private ClamdScanner scanner;

  @BeforeEach
  void start() throws Exception {
    ItEnv.requireSharedClamd();
    proxy = TcpProxy.start(0, ItEnv.sharedClamd().host(), ItEnv.sharedClamd().port());
    scanner =
        ClamdScanner.start(
            ItEnv.settings(new ClamdEndpoint("127.0.0.1", proxy.port()))
                .chunkSizeBytes(CHUNK)
                .validateAfterIdle(Duration.ofHours(1))
                .build());
    assertThat(scanner.scan(ScanContent.of(new byte[1])).verdict()).isEqualTo(Verdict.CLEAN);
  }

  @AfterEach
  void stop() throws Exception {
    scanner.close();
    proxy.close();
  }

  @Test
  void aSmallStreamIsRetriedOnANewConnection() {
    int before = proxy.connections();
    proxy.cutAll();
    byte[] payload = ItEnv.randomBytes(CHUNK, 3);
    ScanReport report = scanner.scan(new ByteArrayInputStream(payload), ScanContent.UNKNOWN_SIZE);
    assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.CLEAN);
    assertThat(proxy.connections()).isGreaterThan(before);
  }

  @Test
  void reopenableContentIsRetriedWhateverItsSize() {
    proxy.cutAll();
    ScanReport report = scanner.scan(ScanContent.of(ItEnv.randomBytes(5 * CHUNK, 4)));
    assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.CLEAN);
  }

  @Test
  void anInfectedPayloadIsStillInfectedAfterTheRetry() {
    proxy.cutAll();
    byte[] eicar = SelfTestProbes.eicar();
    assertThat(scanner.scan(new ByteArrayInputStream(eicar), eicar.length).verdict())
        .isEqualTo(Verdict.INFECTED);
  }

  @Test
  void aStreamAlreadyReadPastItsFirstChunkIsNotResentAndIsAnError() {
    proxy.cutAll();
    byte[] payload = ItEnv.randomBytes(5 * CHUNK, 5);
    ScanReport report = scanner.scan(new ByteArrayInputStream(payload), payload.length);
    assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.ERROR);
    assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
    assertThat(report.detail()).contains("broke").contains("not retried");
    assertThat(scanner.scan(new ByteArrayInputStream(payload), payload.length).verdict())
        .as("the next scan uses a new session")
        .isEqualTo(Verdict.CLEAN);
  }

  @Test
  void withValidationOnEveryBorrowACutSessionIsReplacedBeforeUse() throws Exception {
    try (ClamdScanner validating =
        ClamdScanner.start(
            ItEnv.settings(new ClamdEndpoint("127.0.0.1", proxy.port()))
                .validateAfterIdle(Duration.ZERO)
                .build())) {
      assertThat(validating.scan(ScanContent.of(new byte[1])).verdict()).isEqualTo(Verdict.CLEAN);
      proxy.cutAll();
      byte[] payload = ItEnv.randomBytes(5 * CHUNK, 6);
      ScanReport report = validating.scan(new ByteArrayInputStream(payload), payload.length);
      assertThat(report.verdict()).as(report.toString()).isEqualTo(Verdict.CLEAN);
    }
  }
}
