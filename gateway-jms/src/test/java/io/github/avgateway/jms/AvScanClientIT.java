package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.jms.client.AvScanClient;
import io.github.avgateway.jms.client.ScanCommand;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client for callers and the {@code scan} command, against a running gateway. */
class AvScanClientIT extends AbstractFakeGatewayIT {

  @TempDir Path dir;

  private AvScanClient client(Duration timeout) throws Exception {
    return AvScanClient.connect(properties.url(), null, null, properties.requestQueue(), timeout);
  }

  @Test
  void scansBytesFilesAndStreams() throws Exception {
    Path large = dir.resolve("large.bin");
    Files.write(large, ContractFiles.large(5 * 1024 * 1024, 1));
    try (AvScanClient client = client(Duration.ofSeconds(30))) {
      ScanResult bytes = client.scan(fresh(), "a.txt").get(30, TimeUnit.SECONDS);
      ScanResult file = client.scan(large, "large.bin").get(30, TimeUnit.SECONDS);
      ScanResult stream =
          client
              .scan(new ByteArrayInputStream(ContractFiles.eicar()), "eicar.com")
              .get(30, TimeUnit.SECONDS);

      assertThat(bytes.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(file.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(file.sizeBytes()).isEqualTo(Files.size(large));
      assertThat(file.sha256()).isEqualTo(ContractFiles.sha256(Files.readAllBytes(large)));
      assertThat(stream.verdict()).isEqualTo(Verdict.INFECTED);
      assertThat(stream.signatures()).containsExactly(ContractFiles.EICAR_SIGNATURE);
    }
  }

  @Test
  void scanWithoutReplyInTimeFailsWithTimeout() throws Exception {
    gate.down("paused (test)");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> broker.consumerCount(properties.requestQueue()) == 0);
    try (AvScanClient client = client(Duration.ofMillis(500))) {
      assertThatThrownBy(() -> client.scan(fresh(), null).get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(TimeoutException.class);
    }
  }

  @Test
  void scanCommandPrintsOneVerdictPerFileAndExitsWithTheWorst() throws Exception {
    Path clean = Files.write(dir.resolve("clean.txt"), fresh());
    Path eicar = Files.write(dir.resolve("eicar.com"), ContractFiles.eicar());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int status =
        ScanCommand.run(
            new String[] {"--url", properties.url(), clean.toString(), eicar.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(1);
    assertThat(printed).contains(clean + ": CLEAN");
    assertThat(printed).contains(eicar + ": INFECTED " + ContractFiles.EICAR_SIGNATURE);
  }

  @Test
  void scanCommandReportsAnUnreachableGateway() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        ScanCommand.run(
            new String[] {"--url", "tcp://127.0.0.1:1", "--timeout", "5", "pom.xml"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).isEqualTo(3);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot reach the gateway");
  }
}
