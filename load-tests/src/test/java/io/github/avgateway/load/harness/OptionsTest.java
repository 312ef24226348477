package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OptionsTest {

  /** A closed-loop maximum of 3,000 requests a second (30,000 in 10 s). */
  private static final Cell MAX =
      GatewayFiguresTest.cell("gateway-amqp", "history-on", 1024, 30_000, 40, "child=100");

  @Test
  void theHalfLoadRateIsHalfTheGatewaysOwnMaximumByDefault() {
    assertThat(Options.parse(new String[0]).halfLoadRate(MAX)).isEqualTo(1500);
  }

  @Test
  void aFixedHalfRateIsOfferedWhateverTheMaximum() {
    Options options = Options.parse(new String[] {"--half-rate=2200"});

    assertThat(options.halfLoadRate(MAX)).isEqualTo(2200);
    assertThat(options.halfRate()).isEqualTo(2200);
  }

  @Test
  void theEchoIsRunAgainUnderABurnOnlyWhenAsked() {
    Cell gateway =
        GatewayFiguresTest.cell(
            "gateway-amqp", "history-on @1000/s", 1024, 10_000, 90, "total=800");
    Cell echo =
        GatewayFiguresTest.cell("rabbitmq-echo", "quorum @1000/s", 1024, 10_000, 30, "total=500");

    assertThat(Options.parse(new String[0]).echoBurn(gateway, echo)).isZero();
    assertThat(Options.parse(new String[] {"--echo-burn=0.35"}).echoBurn(gateway, echo))
        .isEqualTo(0.35);
  }

  @Test
  void aMatchedBurnIsTheCoresTheGatewaysCellUsedBeyondTheEchos() {
    Options match = Options.parse(new String[] {"--echo-burn=match"});
    Cell gateway =
        GatewayFiguresTest.cell(
            "gateway-amqp", "history-on @1000/s", 1024, 10_000, 90, "total=800");

    assertThat(
            match.echoBurn(
                gateway,
                GatewayFiguresTest.cell(
                    "rabbitmq-echo", "quorum @1000/s", 1024, 10_000, 30, "total=500")))
        .as("0.8 cores against 0.5")
        .isEqualTo(0.3);
    assertThat(
            match.echoBurn(
                gateway,
                GatewayFiguresTest.cell(
                    "rabbitmq-echo", "quorum @1000/s", 1024, 10_000, 30, "total=900")))
        .as("an echo as busy as the gateway gets no burn")
        .isZero();
  }

  @Test
  void theEchoWithHistoryRunsOnlyWhenAsked() {
    assertThat(Options.parse(new String[0]).echoHistory()).isFalse();
    assertThat(Options.parse(new String[] {"--echo-history"}).echoHistory()).isTrue();
  }

  @Test
  void clamdAloneAtTheHalfLoadRateRunsOnlyWhenAsked() {
    assertThat(Options.parse(new String[0]).clamdAtHalfLoad()).isFalse();
    assertThat(Options.parse(new String[] {"--clamd-at-half"}).clamdAtHalfLoad()).isTrue();
  }

  @Test
  void theTraceRunsOnlyWhenAsked() {
    assertThat(Options.parse(new String[0]).trace()).isFalse();
    assertThat(Options.parse(new String[] {"--trace"}).trace()).isTrue();
  }

  @Test
  void gatewayJvmArgsAreKeptInOrderAndApartFromTheGatewaysProperties() {
    Options options =
        Options.parse(
            new String[] {
              "--gateway-jvm-arg=-XX:-UseParallelGC",
              "--gateway-jvm-arg=-XX:+UseG1GC",
              "--gateway-arg=--avgateway.amqp.consumers=8",
              "--gateway-jvm-arg=-Xlog:gc:file=gc.log"
            });

    assertThat(options.gatewayJvmArgs())
        .containsExactly("-XX:-UseParallelGC", "-XX:+UseG1GC", "-Xlog:gc:file=gc.log");
    assertThat(options.gatewayArgs()).containsExactly("--avgateway.amqp.consumers=8");
    assertThat(Options.parse(new String[0]).gatewayJvmArgs()).isEmpty();
  }
}
