package io.github.avgateway.load.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every flag keeps the name and meaning load-tests/README.md documents. */
class ScaleCommandTest {

  private static final Path REPO = Path.of("/repo");

  private static ScaleOptions parse(String... args) {
    return ScaleCommand.parse(args, REPO);
  }

  @Test
  void theDefaultsFillToAHundredMillionInFourCheckpoints() {
    ScaleOptions options = parse();
    assertThat(options.checkpoints())
        .containsExactly(1_000_000L, 10_000_000L, 30_000_000L, 100_000_000L);
    assertThat(options.dir()).isEqualTo(REPO.resolve("load-tests/target/history-scale"));
    assertThat(options.raw()).isEqualTo(REPO.resolve("perf-notes/raw"));
    assertThat(List.of(options.ingest(), (long) options.docsPerMessage(), (long) options.warm()))
        .containsExactly(1_000_000L, 16L, 50L);
    assertThat(options.coldRounds()).isEqualTo(3);
    assertThat(options.dropCaches()).isTrue();
    assertThat(List.of(options.solrHeap(), options.indexerHeap())).containsExactly("6g", "1g");
    assertThat(List.of(options.fillOnly(), options.queriesOnly(), options.ingestOnly()))
        .containsOnly(false);
    assertThat(List.of(options.feedback(), options.jfr())).containsOnly(false);
    assertThat(options.settleMerges()).isTrue();
    assertThat(options.rabbitPort()).isEqualTo(5672);
  }

  @Test
  void sizesTakeSuffixesAndFlagsTheirValues() {
    ScaleOptions options =
        parse(
            "--checkpoints=10M, 250k",
            "--ingest=500k",
            "--warm=200",
            "--drop-caches=false",
            "--fill-only",
            "--jfr",
            "--dir=/data/h");
    assertThat(options.checkpoints()).containsExactly(10_000_000L, 250_000L);
    assertThat(options.lastCheckpoint()).isEqualTo(250_000L);
    assertThat(options.ingest()).isEqualTo(500_000L);
    assertThat(options.warm()).isEqualTo(200);
    assertThat(options.dropCaches()).isFalse();
    assertThat(options.fillOnly()).isTrue();
    assertThat(options.jfr()).isTrue();
    assertThat(options.dir()).isEqualTo(Path.of("/data/h"));
    assertThat(parse("--ingest-only").ingestOnly()).isTrue();
    assertThat(parse("--queries-only=true").queriesOnly()).isTrue();
    assertThat(parse("--settle-merges=false").settleMerges()).isFalse();
  }

  @Test
  void unknownFlagsAndExclusiveModesAreRefused() {
    assertThatThrownBy(() -> parse("--checkpoint=1M"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--checkpoint=1M");
    assertThatThrownBy(() -> parse("--warm=many")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> parse("--queries-only", "--ingest-only"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exclude each other");
  }

  @Test
  void helpListsEveryFlag() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertThat(ScaleCommand.helpAsked(new String[] {"--help"}, new PrintStream(bytes, true)))
        .isTrue();
    String help = bytes.toString(StandardCharsets.UTF_8);
    for (String flag :
        List.of(
            "--dir",
            "--checkpoints",
            "--ingest",
            "--docs-per-message",
            "--warm",
            "--cold-rounds",
            "--drop-caches",
            "--fill-only",
            "--queries-only",
            "--ingest-only",
            "--feedback",
            "--jfr")) {
      assertThat(help).contains(flag);
    }
    assertThat(ScaleCommand.helpAsked(new String[] {"--jfr"}, System.out)).isFalse();
  }
}
