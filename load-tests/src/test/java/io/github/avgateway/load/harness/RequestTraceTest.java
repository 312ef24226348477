package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.ScanResultJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestTraceTest {

  /** A gateway's CLEAN reply body whose verdict was reached at {@code at}. */
  private static byte[] replyScannedAt(Instant at) {
    return ScanResultJson.encode(
        new ScanResult(
            "r1",
            "r1",
            Verdict.CLEAN,
            List.of(),
            null,
            null,
            "ab",
            1024,
            "ClamAV 1.4.3",
            "1",
            false,
            at,
            0,
            "gw"));
  }

  @Test
  void readsScannedAtFromTheGatewaysReplyBodyToTheMicrosecond() {
    Instant at = Instant.parse("2026-11-26T18:00:00.123456Z");

    long micros = RequestTrace.scannedAtMicros(replyScannedAt(at));

    assertThat(micros).isEqualTo(at.getEpochSecond() * 1_000_000 + 123_456);
  }

  @Test
  void aBodyThatIsNoReplyHasNoScannedAt() {
    assertThat(RequestTrace.scannedAtMicros("{}".getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
    assertThat(RequestTrace.scannedAtMicros("x".getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
  }

  @Test
  void splitsEachRequestAtItsVerdictAndNamesWhereTheSlowestSpentTheirTime() {
    RequestTrace trace = new RequestTrace(Long.MIN_VALUE, Long.MAX_VALUE);
    for (int i = 0; i < 198; i++) {
      trace.add(0, 1_000, 3_000); // 1 ms before the verdict, 2 ms after
    }
    trace.add(0, 40_000, 41_000); // the slowest two: 40 ms before, 1 ms after
    trace.add(0, 30_000, 33_000); // 30 ms before, 3 ms after
    trace.add(0, -1, 5_000);

    List<String> lines = trace.summary("gateway-amqp x @100/s");

    assertThat(lines.get(0)).contains("200 replies in the window (1 without scannedAt)");
    assertThat(lines.get(2)).matches("#   send -> scanned +1\\.0 +1\\.0 +1\\.0 +40\\.0");
    assertThat(lines.get(3)).matches("#   scanned -> reply received +2\\.0 +2\\.0 +2\\.0 +3\\.0");
    assertThat(lines.get(4)).matches("#   whole \\(receipt - send\\) +3\\.0 +3\\.0 +3\\.0 +41\\.0");
    assertThat(lines.get(5))
        .isEqualTo(
            "#   the slowest 1 % (2): mean send -> scanned 35.0, scanned -> reply received 2.0");
  }

  @Test
  void aReplyInTheWindowIsReadWhenSummarised() {
    Instant at = Instant.now();
    RequestTrace trace = new RequestTrace(Long.MIN_VALUE, Long.MAX_VALUE);

    trace.replied(RequestTrace.wallMicros() - 5_000, replyScannedAt(at));

    List<String> lines = trace.summary("c");
    assertThat(lines.get(0)).contains("1 replies in the window (0 without scannedAt)");
    assertThat(lines.get(4)).startsWith("#   whole (receipt - send)");
  }

  @Test
  void repliesOutsideTheWindowAreLeftOut() {
    long now = System.nanoTime();
    RequestTrace trace = new RequestTrace(now + 60_000_000_000L, now + 70_000_000_000L);

    trace.replied(0, "{}".getBytes(StandardCharsets.UTF_8));

    assertThat(trace.summary("c").get(0)).contains("0 replies in the window (0 without");
  }
}
