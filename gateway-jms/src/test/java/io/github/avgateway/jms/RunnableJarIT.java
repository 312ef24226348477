package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.testing.ExampleCallers;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.RunnableJar;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.client.AvScanClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar as {@code scripts/run.sh} starts it ({@code java -jar}, embedded Artemis and
 * Solr, the local clamd) answers a clean file and EICAR and keeps their history, and answers the
 * callers in {@code examples/} on its one port (Python with stomp.py, Node.js with rhea over AMQP
 * 1.0). The other ITs run on the module's classes; only this one sees the repackaged jar's class
 * path, where a dependency demoted to test scope once left the embedded Solr unable to start.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class RunnableJarIT {

  private static final Duration START = Duration.ofSeconds(120);

  @Test
  void theRunnableJarAnswersScansAndRecordsTheirHistory(@TempDir Path dir) throws Exception {
    int broker = TestEnv.freePort();
    int http = TestEnv.freePort();
    String password = "smoke-" + UUID.randomUUID();
    List<String> args =
        List.of(
            "--avgateway.jms.url=tcp://127.0.0.1:" + broker,
            "--avgateway.jms.embedded.data-dir=" + dir.resolve("artemis"));
    try (JavaProcess gateway = RunnableJar.start(dir, http, password, args)) {
      HttpProbe probe = new HttpProbe(http);
      RunnableJar.awaitReady(gateway, probe, START);
      ScanResult clean;
      ScanResult infected;
      try (AvScanClient client =
          AvScanClient.connect(
              "tcp://127.0.0.1:" + broker, null, null, "av.scan.requests", START)) {
        clean = client.scan(ContractFiles.clean(7), "clean.txt").get();
        infected = client.scan(ContractFiles.eicar(), "eicar.com").get();
      }
      assertThat(clean.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(infected.verdict()).isEqualTo(Verdict.INFECTED);
      assertThat(infected.signatures()).containsExactly(ContractFiles.EICAR_SIGNATURE);

      String lookup =
          "/api/history/by-request-id?requestId="
              + URLEncoder.encode(infected.requestId(), StandardCharsets.UTF_8);
      // History travels through the broker: the indexer stores the document after the reply.
      HttpProbe.Answer document =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> probe.get(lookup, "avgateway", password), a -> a.status() == 200);
      assertThat(document.body())
          .contains("\"verdict\":\"INFECTED\"", ContractFiles.EICAR_SIGNATURE, "eicar.com");

      // The callers in examples/ on the same port with the broker's defaults: STOMP with a named
      // reply queue the broker creates on SUBSCRIBE, AMQP 1.0 with a dynamic (temporary) node.
      ExampleCallers.assertCleanAndInfected(
          "stomp.py",
          (file, id) -> ExampleCallers.python("stomp_scan.py", args(file, id, broker)),
          dir);
      ExampleCallers.assertCleanAndInfected(
          "rhea", (file, id) -> ExampleCallers.node("amqp10-scan.js", args(file, id, broker)), dir);
    }
  }

  private static List<String> args(Path file, String correlationId, int port) {
    return List.of(
        file.toString(), "--port", String.valueOf(port), "--correlation-id", correlationId);
  }
}
