package io.github.avgateway.amqp.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScanCliTest {

  @Test
  void withoutFilesOrWithBadOptionsItPrintsUsageAndExits64() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

    assertThat(ScanCli.run(new String[0], System.out, errStream)).isEqualTo(64);
    assertThat(ScanCli.run(new String[] {"--timeout", "soon", "a.txt"}, System.out, errStream))
        .isEqualTo(64);
    assertThat(ScanCli.run(new String[] {"a.txt", "--queue"}, System.out, errStream)).isEqualTo(64);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: scan");
  }
}
