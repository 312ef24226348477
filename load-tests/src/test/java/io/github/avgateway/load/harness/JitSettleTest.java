package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class JitSettleTest {

  @Test
  void theCompilersShareIsTheirCpuOverTheStepsLength() {
    // 30,000 answers in 10 s, 40 µs of JIT each: 1.2 s of one core's 10 s.
    Cell busy =
        GatewayFiguresTest.cell(
            "gateway-jms", "tracing-10pct jit-settle", 1024, 30_000, 50, "child=300 child.jit=40");
    Cell idle =
        GatewayFiguresTest.cell(
            "gateway-jms", "history-on jit-settle", 1024, 30_000, 50, "child=300 child.jit=0");

    assertThat(JitSettle.percentOfCore(busy)).isCloseTo(12.0, within(1e-9));
    assertThat(JitSettle.percentOfCore(idle)).isZero();
  }

  @Test
  void aStepWithoutAJitFigureHasNoShare() {
    Cell unmeasured =
        GatewayFiguresTest.cell("gateway-jms", "history-on jit-settle", 1024, 30_000, 50, "");

    assertThat(JitSettle.percentOfCore(unmeasured)).isNaN();
  }
}
