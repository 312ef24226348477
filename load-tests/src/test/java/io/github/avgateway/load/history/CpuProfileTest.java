package io.github.avgateway.load.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuProfileTest {

  @Test
  void summarisesTheSamplesOfARealRecording(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("burn.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      recording.start();
      long end = System.nanoTime() + Duration.ofMillis(600).toNanos();
      long sink = 0;
      while (System.nanoTime() < end) {
        sink += burn(sink);
      }
      recording.stop();
      recording.dump(file);
      assertThat(sink).isNotZero();
    }

    CpuProfile.Summary summary = CpuProfile.summarise(RecordingFile.readAllEvents(file));

    assertThat(summary.samples()).isPositive();
    assertThat(summary.threads().values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(summary.samples());
    assertThat(summary.kinds()).containsKey("other");
    assertThat(summary.methods().keySet())
        .anyMatch(m -> m.startsWith(CpuProfileTest.class.getName() + "."));
  }

  @Test
  void groupsThreadsByNameWithoutTheirNumbers() {
    assertThat(CpuProfile.threadGroup("qtp1234-56")).isEqualTo("qtp#-#");
    assertThat(CpuProfile.threadGroup("Lucene Merge Thread #3"))
        .isEqualTo("Lucene Merge Thread ##");
    assertThat(CpuProfile.threadGroup(null)).isEqualTo("?");
  }

  private static long burn(long seed) {
    long x = seed | 1;
    for (int i = 0; i < 10_000; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
    }
    return x;
  }
}
