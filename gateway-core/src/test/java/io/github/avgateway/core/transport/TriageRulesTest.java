package io.github.avgateway.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class TriageRulesTest {

  private static final Supplier<Availability> DOWN = () -> Availability.down("clamd refused");
  private static final Supplier<Availability> UP = Availability::up;

  @Test
  void aDeliveryWithinTheLimitPassesAndTheOneAfterItIsRefusedWithBothCounts() {
    assertThat(TriageRules.overDeliveryLimit(1, 1)).isEmpty();
    assertThat(TriageRules.overDeliveryLimit(20, 20)).isEmpty();
    assertThat(TriageRules.overDeliveryLimit(21, 20))
        .contains("delivered 21 times, over the limit of 20");
    assertThat(TriageRules.overDeliveryLimit(5, Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void aFailedScanIsHeldOnlyWhileIntakeIsDown() {
    ScanResult failed = result(Verdict.ERROR, Reason.SCAN_FAILED);

    assertThat(TriageRules.scanFailed(failed)).isTrue();
    assertThat(TriageRules.held(failed, DOWN)).contains("clamd refused");
    assertThat(TriageRules.held(failed, UP)).isEmpty();
  }

  @Test
  void anyOtherResultIsFinalAndTheGateIsNotAsked() {
    AtomicInteger asked = new AtomicInteger();
    Supplier<Availability> counting =
        () -> {
          asked.incrementAndGet();
          return DOWN.get();
        };

    for (ScanResult result :
        List.of(
            result(Verdict.CLEAN, null),
            result(Verdict.INFECTED, null),
            result(Verdict.ERROR, Reason.MALFORMED_REQUEST),
            result(Verdict.UNSCANNABLE, Reason.TOO_LARGE))) {
      assertThat(TriageRules.scanFailed(result)).as(result.verdict().name()).isFalse();
      assertThat(TriageRules.held(result, counting)).isEmpty();
    }
    assertThat(asked).hasValue(0);
  }

  private static ScanResult result(Verdict verdict, Reason reason) {
    return new ScanResult(
        "r-1",
        null,
        verdict,
        List.of(),
        reason,
        null,
        null,
        68,
        "ClamAV 1.4",
        "",
        false,
        Instant.now(),
        1,
        "gw-1");
  }
}
