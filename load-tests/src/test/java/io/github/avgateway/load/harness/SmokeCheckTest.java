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
        .contains(
            "no 1 KiB cell for gateway-jms history-on",
            "no 1 KiB cell for gateway-jms history-off",
            "no gateway figures for jms at 1 KiB");
    assertThat(SmokeCheck.verdict(report)).isEqualTo(1);
  }

  @Test
  void aRunWhoseRawResultsLackTheFiguresTablesFails() throws IOException {
    Report report = reportWithAllCells(FULL_SPLIT);
    assertThat(SmokeCheck.problems(report))
        .containsExactly(
            "the raw results have no '# Gateway figures' table",
            "the raw results have no '# Gateway targets' table");
  }

  @Test
  void aGatewayCellWithoutTheThreadSplitOrAMissingEchoHalfLoadCellFails() throws IOException {
    Report report = new Report(dir.resolve("raw.txt"));
    for (List<String> cell : SmokeCheck.REQUIRED) {
      report.cell(cell(cell.get(0), cell.get(1), 100, 0, "child=500 clamd=200"));
    }
    report.cell(cell("gateway-amqp", "history-on @50/s", 50, 0, ""));
    report.cell(cell("rabbitmq-echo", "echo quorum @50/s", 50, 0, ""));
    report.cell(cell("gateway-jms", "history-on @50/s", 50, 0, ""));
    new FiguresTable(Options.parse(new String[] {"--smoke"}), report).print();
    assertThat(SmokeCheck.problems(report))
        .containsExactly(
            "amqp 1 KiB: no broker threads' CPU",
            "amqp 1 KiB: no Solr threads' CPU",
            "jms 1 KiB: no broker threads' CPU",
            "jms 1 KiB: no Solr threads' CPU",
            "jms 1 KiB: no p99 at half load and the echo's p99 at the same rate");
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

  private static final String FULL_SPLIT =
      "driver=80 child=500 clamd=200 rabbitmq=100 total=880 child.broker=200 child.solr=50"
          + " child.indexer=10 child.jit=20 child.other=215 child.ended=5";

  /** Every required cell, the half-load cells of both gateways and echoes, and the tables. */
  private Report reportWithAllRequired() throws IOException {
    Report report = reportWithAllCells(FULL_SPLIT);
    new FiguresTable(Options.parse(new String[] {"--smoke"}), report).print();
    return report;
  }

  private Report reportWithAllCells(String cpu) throws IOException {
    Report report = new Report(dir.resolve("raw.txt"));
    for (List<String> cell : SmokeCheck.REQUIRED) {
      report.cell(cell(cell.get(0), cell.get(1), 100, 0, cpu));
    }
    report.cell(cell("gateway-amqp", "history-on @50/s", 50, 0, cpu));
    report.cell(cell("rabbitmq-echo", "echo quorum @50/s", 50, 0, cpu));
    report.cell(cell("gateway-jms", "history-on @50/s", 50, 0, cpu));
    report.cell(cell("artemis-echo", "echo persistent @50/s", 50, 0, cpu));
    return report;
  }

  private static Cell cell(String target, String variant, long completed, long failed) {
    return cell(target, variant, completed, failed, "");
  }

  private static Cell cell(String target, String variant, long completed, long failed, String cpu) {
    return new Cell(target, variant, 1024, 8, completed, failed, 1.0, 1, 2, 3, 4, cpu);
  }
}
