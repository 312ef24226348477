package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.avgateway.load.harness.GatewayFigures.Via;
import io.github.avgateway.load.harness.Targets.Check;
import io.github.avgateway.load.harness.Targets.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GatewayFiguresTest {

  private static final int KIB = 1024;
  private static final int MIB = 1024 * 1024;

  @TempDir Path dir;

  /** A measured cell: {@code completed} answers in 10 s, p99 as given. */
  static Cell cell(
      String target, String variant, int size, long completed, double p99, String cpu) {
    return new Cell(target, variant, size, 0, completed, 0, 10.0, 1, 2, p99, p99 + 1, cpu);
  }

  /** The cells one transport's figures at 1 KiB are made of. */
  static void oneKib(Report report, Via via, String gatewayCpu) {
    report.cell(cell("clamd", "raw 8 sessions", KIB, 60_000, 4, "driver=90 clamd=170 total=260"));
    report.cell(cell(via.echoTarget, via.echoVariant, KIB, 40_000, 30, "child=300"));
    report.cell(cell(via.gateway(), "history-on", KIB, 20_000, 120, gatewayCpu));
    report.cell(cell(via.gateway(), "history-on @1000/s", KIB, 10_000, 90, "child=800"));
    report.cell(cell(via.echoTarget, via.echoVariant + " @1000/s", KIB, 10_000, 30, "child=200"));
  }

  @Test
  void ownCpuIsTheJvmLessTheEmbeddedBrokerAndSolrThreadsAndIsComparedWithClamdPerScan()
      throws IOException {
    Report report = new Report(dir.resolve("raw.txt"));
    oneKib(
        report,
        Via.JMS,
        "driver=70 child=500 clamd=200 rabbitmq=1 total=771 child.broker=220 child.solr=60"
            + " child.indexer=20 child.jit=15 child.gc=30 child.other=150 child.ended=5");

    GatewayFigures f = GatewayFigures.of(report, Via.JMS, KIB).orElseThrow();

    assertThat(f.jvm()).isEqualTo(500);
    assertThat(f.own()).isEqualTo(220); // 500 - 220 - 60; indexer, JIT and GC stay in own
    assertThat(f.gc()).isEqualTo(30);
    assertThat(f.clamd()).isEqualTo(200);
    assertThat(f.ownOverClamd()).isCloseTo(1.1, within(1e-9));
    assertThat(f.ownPerMiB()).isCloseTo(220 * 1024 / 1000.0, within(1e-9)); // ms per MiB
    // shared = 1/(1/6000 + 1/4000) = 2400 req/s; the gateway did 2000
    assertThat(f.shared()).isCloseTo(2400, within(1e-9));
    assertThat(f.ofShared()).isCloseTo(2000 / 2400.0, within(1e-9));
    assertThat(f.halfRate()).isEqualTo(1000);
    assertThat(f.p99OverEcho()).isCloseTo(3.0, within(1e-9));
    assertThat(f.missing()).isEmpty();
  }

  @Test
  void targetsPassOrMissFromTheFigures() throws IOException {
    Report report = new Report(dir.resolve("raw.txt"));
    // AMQP: own 140 us <= clamd 150 us; 2000 r/s of a 2400 shared bound (83 %); p99 90/30 = 3x
    oneKib(
        report,
        Via.AMQP,
        "child=200 clamd=150 child.broker=0 child.solr=60 child.indexer=10 child.jit=5");
    report.cell(cell("clamd", "raw 8 sessions", MIB, 1600, 8, "clamd=11000"));
    report.cell(cell("rabbitmq-echo", "echo quorum", MIB, 2400, 60, "child=2000"));
    // 1 MiB: own = 3000 - 0 - 1200 = 1800 us = 1.8 ms per MiB; 90 r/s of 96 shared (94 %)
    report.cell(
        cell(
            "gateway-amqp",
            "history-on",
            MIB,
            900,
            100,
            "child=3000 clamd=6000 child.broker=0 child.solr=1200"));

    List<GatewayFigures> figures =
        List.of(
            GatewayFigures.of(report, Via.AMQP, KIB).orElseThrow(),
            GatewayFigures.of(report, Via.AMQP, MIB).orElseThrow());
    List<Check> checks = Targets.checks(figures);

    assertThat(checks)
        .extracting(Check::name, Check::size, Check::result)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Targets.OWN_VS_CLAMD, KIB, Result.PASS),
            org.assertj.core.groups.Tuple.tuple(Targets.OF_SHARED, KIB, Result.MISS),
            org.assertj.core.groups.Tuple.tuple(Targets.P99_VS_ECHO, KIB, Result.MISS),
            org.assertj.core.groups.Tuple.tuple(Targets.OWN_PER_MIB, MIB, Result.PASS),
            org.assertj.core.groups.Tuple.tuple(Targets.OF_SHARED, MIB, Result.PASS));
    assertThat(checks.get(3).value()).isCloseTo(1.8, within(1e-9));
    assertThat(checks.get(4).value()).isCloseTo(90 / 96.0, within(1e-9));
  }

  @Test
  void aLimitExactlyMetPassesAndAnUnmeasuredFigureIsNeitherPassNorMiss() {
    assertThat(new Check("x", Via.AMQP, KIB, 2.0, true, 2.0).result()).isEqualTo(Result.PASS);
    assertThat(new Check("x", Via.AMQP, KIB, 0.85, false, 0.85).result()).isEqualTo(Result.PASS);
    assertThat(new Check("x", Via.AMQP, KIB, 0.84, false, 0.85).result()).isEqualTo(Result.MISS);
    assertThat(new Check("x", Via.AMQP, KIB, Double.NaN, true, 2.0).result()).isEqualTo(Result.NA);
  }

  @Test
  void figuresARunDidNotMeasureAreNamed() throws IOException {
    Report report = new Report(dir.resolve("raw.txt"));
    // a gateway cell measured without the thread split and no echo or half-load cells
    report.cell(cell("clamd", "raw 8 sessions", KIB, 60_000, 4, "clamd=170"));
    report.cell(cell("gateway-amqp", "history-on", KIB, 20_000, 120, "child=200 clamd=150"));

    GatewayFigures f = GatewayFigures.of(report, Via.AMQP, KIB).orElseThrow();

    assertThat(f.missing())
        .containsExactly(
            "broker threads' CPU",
            "Solr threads' CPU",
            "shared bound (clamd alone and echo cells)",
            "p99 at half load and the echo's p99 at the same rate");
    assertThat(GatewayFigures.of(report, Via.JMS, KIB)).isEmpty();
    assertThat(Targets.checks(List.of(f)))
        .extracting(Check::result)
        .containsExactly(Result.NA, Result.NA, Result.NA);
  }

  @Test
  void theEchoHalfLoadCellIsTheOneAtTheGatewaysOfferedRate() throws IOException {
    Report report = new Report(dir.resolve("raw.txt"));
    oneKib(report, Via.AMQP, "child=200 clamd=150 child.broker=0 child.solr=60");
    report.cell(cell("rabbitmq-echo", "echo quorum @999/s", KIB, 10_000, 5, ""));

    assertThat(GatewayFigures.of(report, Via.AMQP, KIB).orElseThrow().p99Echo()).isEqualTo(30);
  }
}
