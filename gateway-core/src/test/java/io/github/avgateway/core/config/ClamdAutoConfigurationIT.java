package io.github.avgateway.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.clamd.ClamdReadiness;
import io.github.avgateway.core.clamd.ClamdScanner;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.VirusScanner;
import io.github.avgateway.core.testing.TestEnv;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration against the project's clamd, and with clamd down. */
class ClamdAutoConfigurationIT {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ClamdAutoConfiguration.class));

  @Test
  void createsTheScannerAndBecomesReadyOnceTheSelfTestPassed() {
    runner
        .withPropertyValues("avgateway.clamd.endpoints=" + TestEnv.clamdEndpoint())
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(VirusScanner.class);
          ClamdReadiness readiness = context.getBean(ClamdReadiness.class);
          await("the self-test passes")
              .atMost(Duration.ofSeconds(20))
              .until(readiness::availability, Availability.Up.class::isInstance);
          ClamdScanner scanner = context.getBean(ClamdScanner.class);
          assertThat(scanner.scan(ScanContent.of(new byte[10])).verdict()).isEqualTo(Verdict.CLEAN);
        });
  }

  @Test
  void startsWithClamdDownAndReportsWhy() throws IOException {
    int deadPort;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      deadPort = probe.getLocalPort();
    }
    runner
        .withPropertyValues("avgateway.clamd.endpoints=127.0.0.1:" + deadPort)
        .run(context -> {
          assertThat(context).hasNotFailed();
          ClamdReadiness readiness = context.getBean(ClamdReadiness.class);
          await("the self-test reports clamd down")
              .atMost(Duration.ofSeconds(20))
              .untilAsserted(() ->
                  assertThat(readiness.availability())
                      .isInstanceOfSatisfying(
                          Availability.Down.class,
                          down ->
                              assertThat(down.why())
                                  .contains("clamd cannot scan")
                                  .contains("127.0.0.1:" + deadPort)));
        });
  }

  @Test
  void canBeTurnedOff() {
    runner
        .withPropertyValues("avgateway.clamd.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(ClamdScanner.class));
  }
}
