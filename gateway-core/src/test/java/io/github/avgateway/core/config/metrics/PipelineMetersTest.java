package io.github.avgateway.core.config.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelineMetersTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PipelineMeters meters = new PipelineMeters();

  private static MessageInfo info(
      Verdict verdict, Reason reason, boolean cached, DeadLetterReason deadLetter) {
    Instant now = Instant.parse("2026-11-22T12:00:00Z");
    return new MessageInfo(
        "jms:1",
        "1",
        null,
        "jms",
        "client",
        "f.txt",
        null,
        3,
        null,
        verdict,
        List.of(),
        reason,
        "ClamAV 1.4.6",
        "",
        cached,
        now,
        now,
        1,
        25,
        "gw",
        false,
        deadLetter == null ? Disposition.REPLIED : Disposition.DEAD_LETTERED,
        deadLetter);
  }

  @Test
  void nothingIsCountedBeforeBindingAndEverythingAfter() {
    meters.finished(info(Verdict.CLEAN, null, false, null));
    meters.bindTo(registry);
    meters.finished(info(Verdict.CLEAN, null, true, null));
    meters.finished(
        info(Verdict.ERROR, Reason.MALFORMED_REQUEST, false, DeadLetterReason.MALFORMED_REQUEST));
    meters.scanned(ScanReport.clean(EngineVersion.UNKNOWN, 1), 1234, Duration.ofMillis(7));

    assertThat(
            registry
                .get("avgateway.scans")
                .tag("verdict", "CLEAN")
                .tag("reason", "none")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(registry.get("avgateway.scans").tag("reason", "MALFORMED_REQUEST").counter().count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("avgateway.dead.letters")
                .tag("reason", "MALFORMED_REQUEST")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(registry.get("avgateway.cache.hits").counter().count()).isEqualTo(1);
    assertThat(registry.get("avgateway.request.duration").timers())
        .allSatisfy(
            t -> assertThat(t.max(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(25));
    assertThat(registry.get("avgateway.scan.duration").tag("verdict", "CLEAN").timer().count())
        .isEqualTo(1);
    assertThat(registry.get("avgateway.scan.bytes").summary().totalAmount()).isEqualTo(1234);
  }
}
