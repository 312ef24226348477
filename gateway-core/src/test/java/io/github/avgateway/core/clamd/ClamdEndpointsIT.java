package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.testing.TcpProxy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Several endpoints: a dead one is skipped, and used again once it answers. */
class ClamdEndpointsIT {

  @Test
  void withOneOfTwoEndpointsDeadTheLiveOneServesEveryScanAndTheDeadOneComesBack() throws Exception {
    ItEnv.requireSharedClamd();
    ClamdEndpoint dead = new ClamdEndpoint("127.0.0.1", ItEnv.freePort());
    try (ClamdScanner scanner =
        ClamdScanner.start(ItEnv.settings(dead, ItEnv.sharedClamd()).build())) {
      for (int i = 0; i < 50; i++) {
        byte[] payload = i % 2 == 0 ? SelfTestProbes.eicar() : ItEnv.randomBytes(512, i);
        Verdict expected = i % 2 == 0 ? Verdict.INFECTED : Verdict.CLEAN;
        assertThat(scanner.scan(ScanContent.of(payload)).verdict()).isEqualTo(expected);
      }
      assertThat(scanner.availability()).isEqualTo(Availability.up());

      try (TcpProxy revived =
          TcpProxy.start(dead.port(), ItEnv.sharedClamd().host(), ItEnv.sharedClamd().port())) {
        await("the revived endpoint is probed and used again")
            .atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(50))
            .untilAsserted(() -> {
              assertThat(scanner.scan(ScanContent.of(new byte[1])).verdict())
                  .isEqualTo(Verdict.CLEAN);
              assertThat(revived.connections()).isGreaterThan(1);
            });
      }
    }
  }

  @Test
  void withEveryEndpointDeadScansAreErrorsNamingEachEndpoint() {
    ClamdEndpoint first = new ClamdEndpoint("127.0.0.1", ItEnv.freePort());
    ClamdEndpoint second = new ClamdEndpoint("127.0.0.1", ItEnv.freePort());
    try (ClamdScanner scanner = ClamdScanner.start(ItEnv.settings(first, second).build())) {
      var report = scanner.scan(ScanContent.of(new byte[1]));
      assertThat(report.verdict()).isEqualTo(Verdict.ERROR);
      assertThat(report.detail()).contains(first.toString());
      var again = scanner.scan(ScanContent.of(new byte[1]));
      assertThat(again.detail())
          .contains("no clamd endpoint is up", first.toString(), second.toString());
      assertThat(scanner.availability()).isInstanceOf(Availability.Down.class);
    }
  }
}
