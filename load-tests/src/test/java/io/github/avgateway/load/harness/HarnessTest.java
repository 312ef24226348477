package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.load.harness.Harness.WarmupStep;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class HarnessTest {

  private static final int KIB = 1024;
  private static final int MIB = 1024 * 1024;

  @Test
  void aWarmupGivesEachLargerSizeAShareOfAThirdAtMostTenSecondsAndOneKibTheRest() {
    assertThat(Harness.warmupPlan(Duration.ofSeconds(120), List.of(KIB, 64 * KIB, MIB, 10 * MIB)))
        .containsExactly(
            new WarmupStep(KIB, Duration.ofSeconds(90)),
            new WarmupStep(64 * KIB, Duration.ofSeconds(10)),
            new WarmupStep(MIB, Duration.ofSeconds(10)),
            new WarmupStep(10 * MIB, Duration.ofSeconds(10)));
    assertThat(Harness.warmupPlan(Duration.ofSeconds(30), List.of(MIB, 10 * MIB)))
        .containsExactly(
            new WarmupStep(KIB, Duration.ofSeconds(20)),
            new WarmupStep(MIB, Duration.ofSeconds(5)),
            new WarmupStep(10 * MIB, Duration.ofSeconds(5)));
  }

  @Test
  void aRunOfOneKibOnlyWarmsUpAtOneKibForTheWholeTime() {
    assertThat(Harness.warmupPlan(Duration.ofSeconds(20), List.of(KIB)))
        .containsExactly(new WarmupStep(KIB, Duration.ofSeconds(20)));
  }
}
