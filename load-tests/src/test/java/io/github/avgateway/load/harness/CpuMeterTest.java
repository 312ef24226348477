package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

  @Test
  void readsHowLongThisProcessWaitedForACore() {
    assumeTrue(Files.exists(Path.of("/proc/self/schedstat")), "a kernel that keeps schedstat");

    long waited = CpuMeter.waitedNanos(ProcessHandle.current().pid());

    assertThat(waited).isNotNegative();
  }

  @Test
  void aProcessThatIsGoneHasNoWait() {
    assertThat(CpuMeter.waitedNanos(Long.MAX_VALUE)).isEqualTo(-1);
  }

  @Test
  void eachGroupsWaitAndTheirSumArePartOfTheFigures() {
    assumeTrue(Files.exists(Path.of("/proc/self/schedstat")), "a kernel that keeps schedstat");
    Cell cell =
        GatewayFiguresTest.cell(
            "gateway-amqp", "x", 1024, 1000, 0, new CpuMeter(-1).perRequest(1000));

    assertThat(cell.cpuMicros("wait.driver")).isNotNegative();
    assertThat(cell.cpuMicros("wait.total")).isGreaterThanOrEqualTo(cell.cpuMicros("wait.driver"));
    assertThat(cell.cpuMicros("total")).isNotNegative();
  }
}
