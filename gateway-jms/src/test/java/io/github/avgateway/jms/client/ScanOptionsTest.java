package io.github.avgateway.jms.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScanOptionsTest {

  @Test
  void defaultsPointAtTheEmbeddedGateway() {
    ScanOptions options = ScanOptions.parse(new String[] {"a.txt"});

    assertThat(options.url()).isEqualTo("tcp://127.0.0.1:61616");
    assertThat(options.queue()).isEqualTo("av.scan.requests");
    assertThat(options.timeoutSeconds()).isEqualTo(120);
    assertThat(options.files()).containsExactly(Path.of("a.txt"));
  }

  @Test
  void optionsAndSeveralFiles() {
    ScanOptions options =
        ScanOptions.parse(
            new String[] {
              "--url",
              "tcp://h:1",
              "--queue",
              "q",
              "--user",
              "u",
              "--password",
              "p",
              "--timeout",
              "5",
              "a",
              "b"
            });

    assertThat(options.url()).isEqualTo("tcp://h:1");
    assertThat(options.queue()).isEqualTo("q");
    assertThat(options.user()).isEqualTo("u");
    assertThat(options.timeoutSeconds()).isEqualTo(5);
    assertThat(options.files()).isEqualTo(List.of(Path.of("a"), Path.of("b")));
    assertThat(options.toString()).doesNotContain("password=p");
  }

  @Test
  void badCommandLinesAreRefused() {
    assertThatThrownBy(() -> ScanOptions.parse(new String[0])).hasMessage("no file to scan");
    assertThatThrownBy(() -> ScanOptions.parse(new String[] {"--url"}))
        .hasMessage("--url needs a value");
    assertThatThrownBy(() -> ScanOptions.parse(new String[] {"--timeout", "0", "a"}))
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> ScanOptions.parse(new String[] {"--frobnicate", "a"}))
        .hasMessage("unknown option --frobnicate");
  }
}
