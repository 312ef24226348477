package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every flag keeps the name and meaning load-tests/README.md documents. */
class HarnessCommandTest {

  private static Options parse(String... args) {
    return Options.parse(args);
  }

  @Test
  void theDefaultsAreAFullRun() {
    Options options = parse();
    assertThat(options.sizes()).containsExactly(1024, 64 * 1024, 1024 * 1024, 10 * 1024 * 1024);
    assertThat(options.phases()).isEqualTo(Options.DEFAULT_PHASES);
    assertThat(List.of(options.warmup(), options.measure(), options.jitWarmup()))
        .containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(20));
    assertThat(options.smoke()).isFalse();
    assertThat(options.variant()).isEqualTo("plain");
    assertThat(options.payload()).isEqualTo("random");
    assertThat(options.requests()).isEqualTo(10_001);
    assertThat(options.soakMax()).isEqualTo(Duration.ofMinutes(40));
  }

  @Test
  void quickAndSmokeShortenTheCells() {
    Options quick = parse("--quick");
    assertThat(List.of(quick.warmup(), quick.measure(), quick.jitWarmup()))
        .containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(15));
    Options smoke = parse("--smoke");
    assertThat(smoke.smoke()).isTrue();
    assertThat(smoke.sizes()).containsExactly(1024);
    assertThat(smoke.phases()).isEqualTo(Options.SMOKE_PHASES);
    assertThat(smoke.measure()).isEqualTo(Duration.ofSeconds(1));
    assertThat(parse("--smoke", "--sizes=64k").sizes()).containsExactly(64 * 1024);
    assertThat(parse("--warmup=4", "--measure=12").measure()).isEqualTo(Duration.ofSeconds(12));
  }

  @Test
  void phasesAreChosenByOnlyAndSkip() {
    assertThat(parse("--only=amqp,jms", "--skip=jms").phases()).isEqualTo(Set.of("amqp"));
    assertThat(parse("--skip=cold,durability").phases())
        .containsExactlyInAnyOrder("clamd", "amqp-echo", "jms-echo", "amqp", "jms");
    assertThat(parse("--sizes=1k,1m").sizes()).containsExactly(1024, 1024 * 1024);
  }

  @Test
  void soakAndEicarSameReplaceEveryOtherPhase() {
    Options soak = parse("--soak", "--soak-max-minutes=5");
    assertThat(soak.phases()).isEqualTo(Set.of("soak"));
    assertThat(soak.soakRequests()).isEqualTo(1_000_000);
    assertThat(soak.soakMax()).isEqualTo(Duration.ofMinutes(5));
    assertThat(parse("--soak=500").soakRequests()).isEqualTo(500);
    Options eicar = parse("--payload=eicar-same", "--requests=7");
    assertThat(eicar.phases()).isEqualTo(Set.of(EicarSame.PHASE));
    assertThat(eicar.requests()).isEqualTo(7);
    assertThatThrownBy(() -> parse("--payload=zeros"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("random or eicar-same");
  }

  @Test
  void gatewayArgumentsThatLookLikeFlagsAreKeptWhole() {
    Options options =
        parse(
            "--gateway-arg=--avgateway.amqp.consumers=8",
            "--gateway-arg=--avgateway.history.enabled=false",
            "--gateway-jvm-arg=-Xlog:gc:file=gc.log",
            "--jfr",
            "--jit-warmup=120",
            "--jit-settle=2.5");
    assertThat(options.gatewayArgs())
        .containsExactly("--avgateway.amqp.consumers=8", "--avgateway.history.enabled=false");
    assertThat(options.gatewayJvmArgs()).containsExactly("-Xlog:gc:file=gc.log");
    assertThat(options.jfr()).isTrue();
    assertThat(options.jitWarmup()).isEqualTo(Duration.ofSeconds(120));
    assertThat(options.jitSettle()).isEqualTo(2.5);
    assertThat(parse().jitSettle()).as("off unless asked").isZero();
  }

  @Test
  void theRestKeepTheirValues() {
    Options options =
        parse(
            "--baseline=/tmp/base/../base",
            "--variant= after ",
            "--half-rate=2200",
            "--echo-burn=match",
            "--echo-history",
            "--clamd-at-half",
            "--trace",
            "--tracing=http://127.0.0.1:9411/api/v2/spans",
            "--rounds=3");
    assertThat(options.baseline()).isEqualTo(Path.of("/tmp/base"));
    assertThat(options.variant()).isEqualTo("after");
    assertThat(options.halfRate()).isEqualTo(2200);
    assertThat(options.echoBurn()).isEqualTo(Options.MATCH_BURN);
    assertThat(options.echoHistory()).isTrue();
    assertThat(options.clamdAtHalfLoad()).isTrue();
    assertThat(options.trace()).isTrue();
    assertThat(options.tracing()).isEqualTo("http://127.0.0.1:9411/api/v2/spans");
    assertThat(options.rounds()).isEqualTo(3);
    assertThat(parse().rounds()).as("one round unless asked").isEqualTo(1);
  }

  @Test
  void anUnknownFlagIsRefused() {
    assertThatThrownBy(() -> parse("--sizez=1k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--sizez");
  }

  @Test
  void helpListsEveryFlag() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertThat(HarnessCommand.helpAsked(new String[] {"--help"}, new PrintStream(bytes, true)))
        .isTrue();
    assertThat(HarnessCommand.helpAsked(new String[] {"--smoke"}, System.out)).isFalse();
    String help = bytes.toString(StandardCharsets.UTF_8);
    for (String flag :
        List.of(
            "--quick",
            "--smoke",
            "--warmup",
            "--measure",
            "--sizes",
            "--only",
            "--skip",
            "--soak",
            "--soak-max-minutes",
            "--gateway-arg",
            "--gateway-jvm-arg",
            "--jfr",
            "--jit-warmup",
            "--jit-settle",
            "--baseline",
            "--payload",
            "--requests",
            "--variant",
            "--half-rate",
            "--echo-burn",
            "--echo-history",
            "--clamd-at-half",
            "--trace",
            "--tracing",
            "--rounds",
            "--no-build")) {
      assertThat(help).as(flag).contains(flag);
    }
  }

  @Test
  void everyDescriptionIsAValidFormat() {
    // picocli formats each description with String.format: a bare '%' makes it print a warning
    // and the raw text instead.
    for (var field : HarnessCommand.class.getDeclaredFields()) {
      CommandLine.Option option = field.getAnnotation(CommandLine.Option.class);
      if (option == null) {
        continue;
      }
      for (String line : option.description()) {
        assertThatCode(() -> String.format(line)).as(field.getName()).doesNotThrowAnyException();
      }
    }
  }
}
