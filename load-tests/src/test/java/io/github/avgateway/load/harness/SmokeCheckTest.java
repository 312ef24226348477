package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeCheckTest {

  @TempDir Path dir;

  @Test
  void aRunWithEveryRequiredCellAnsweredPasses() throws IOException {
    Report report = reportWithAllRequired();
    assertThat(SmokeCheck.problems(report)).isEmpty();
    assertThat(SmokeCheck.verdict(report)).isZero();
  }

  @Test
  void aMissingCellFailsNamingIt() throws IOException {
    Report report = new Report(dir.resolve("raw.txt"));
    for (List<String> cell : SmokeCheck.REQUIRED) {
      if (!cell.get(0).equals("gateway-jms")) {
        report.cell(cell(cell.get(0), cell.get(1), 100, 0));
      }
    }
    assertThat(SmokeCheck.problems(report))
        .containsExactly(
            "no 1 KiB cell for gateway-jms history-on",
            "no 1 KiB cell for gateway-jms history-off");
    assertThat(SmokeCheck.verdict(report)).isEqualTo(1);
  }

  @Test
  void aCellWithAFailedOrNoAnsweredRequestFails() throws IOException {
    Report report = reportWithAllRequired();
    report.cell(cell("gateway-amqp", "history-on @50/s", 40, 1));
    report.cell(cell("gateway-jms", "history-on cold 0-1s", 0, 0));
    assertThat(SmokeCheck.problems(report))
        .containsExactly(
            "gateway-amqp history-on @50/s: 40 answered, 1 failed",
            "gateway-jms history-on cold 0-1s: 0 answered, 0 failed");
  }

  @Test
  void anEicarSameRunNeedsEachGatewayWithTheCacheOnAndOffAnsweredInfected() throws IOException {
    List<List<String>> required = EicarSame.required(true);
    Report report = new Report(dir.resolve("raw.txt"));
    for (List<String> cell : required) {
      if (!cell.equals(List.of("gateway-jms", "eicar-same cache=false"))) {
        report.cell(new Cell(cell.get(0), cell.get(1), 68, 128, 10_001, 0, 2.0, 1, 2, 3, 4, ""));
      }
    }
    assertThat(required).hasSize(4);
    assertThat(SmokeCheck.problems(report, required))
        .containsExactly("no cell for gateway-jms eicar-same cache=false");
    report.cell(
        new Cell("gateway-jms", "eicar-same cache=false", 68, 128, 10_000, 1, 2.0, 1, 2, 3, 4, ""));
    assertThat(SmokeCheck.problems(report, required))
        .containsExactly("gateway-jms eicar-same cache=false: 10000 answered, 1 failed");
  }

  @Test
  void payloadEicarSameRunsOnlyThatPhaseWithItsOwnRequiredCells() {
    Options options =
        Options.parse(new String[] {"--smoke", "--payload=eicar-same", "--requests=50"});
    assertThat(options.phases()).containsExactly("eicar-same");
    assertThat(options.requests()).isEqualTo(50);
    assertThat(options.smokeCells()).isEqualTo(EicarSame.required(GatewayRuns.jmsAvailable()));
    assertThat(Options.parse(new String[0]).smokeCells()).isEqualTo(SmokeCheck.REQUIRED);
  }

  private Report reportWithAllRequired() throws IOException {
    Report report = new Report(dir.resolve("raw.txt"));
    for (List<String> cell : SmokeCheck.REQUIRED) {
      report.cell(cell(cell.get(0), cell.get(1), 100, 0));
    }
    return report;
  }

  private static Cell cell(String target, String variant, long completed, long failed) {
    return new Cell(target, variant, 1024, 8, completed, failed, 1.0, 1, 2, 3, 4, "");
  }
}
