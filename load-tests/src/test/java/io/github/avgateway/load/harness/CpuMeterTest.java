package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuMeterTest {

  /** The harness' wait figures need a kernel that keeps schedstat: without it this test fails. */
  @Test
  void readsHowLongThisProcessWaitedForACore() {
    long waited = CpuMeter.waitedNanos(ProcessHandle.current().pid());

    assertThat(waited).isNotNegative();
  }

  @Test
  void aProcessIsFoundByWhatItsCommandLineHolds() throws Exception {
    Process marked = new ProcessBuilder("sleep", "31.4159").start();
    try {
      assertThat(CpuMeter.byCommandLine("31.4159")).containsExactly(marked.pid());
      assertThat(CpuMeter.byCommandLine("no-such-command-line-3.14159")).isEmpty();
    } finally {
      marked.destroy();
    }
  }

  @Test
  void aProcessThatIsGoneHasNoWait() {
    assertThat(CpuMeter.waitedNanos(Long.MAX_VALUE)).isEqualTo(-1);
  }

  @Test
  void eachGroupsWaitAndTheirSumArePartOfTheFigures() {
    Cell cell =
        GatewayFiguresTest.cell(
            "gateway-amqp", "x", 1024, 1000, 0, new CpuMeter(-1).perRequest(1000));

    assertThat(cell.cpuMicros("wait.driver")).isNotNegative();
    assertThat(cell.cpuMicros("wait.total")).isGreaterThanOrEqualTo(cell.cpuMicros("wait.driver"));
    assertThat(cell.cpuMicros("total")).isNotNegative();
  }
}
