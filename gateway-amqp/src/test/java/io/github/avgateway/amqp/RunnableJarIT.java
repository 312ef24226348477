package io.github.avgateway.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.client.AmqpScanClient;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.testing.ExampleCallers;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.RunnableJar;
import io.github.avgateway.core.testing.TestEnv;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;

/**
 * The runnable jar as {@code scripts/run.sh amqp} starts it ({@code java -jar}, the local RabbitMQ
 * and clamd, embedded Solr) answers a clean file and EICAR and keeps their history, and answers the
 * callers in {@code examples/} (Python with pika, Node.js with amqplib; each with direct reply-to
 * and with a server-named queue) and the clean-pipe example. The other ITs run on the module's
 * classes; only this one sees the repackaged jar's class path, where a dependency demoted to test
 * scope once left the embedded Solr unable to start.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class RunnableJarIT {

  private static final Duration START = Duration.ofSeconds(120);
  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "jar.requests." + SUFFIX;
  private static final String DLX = "jar.dlx." + SUFFIX;
  private static final String DLQ = "jar.dead." + SUFFIX;
  // Its own history queue: a backlog another process left in the default one is not its to drain.
  private static final String HISTORY = "jar.history." + SUFFIX;
  private static final String HISTORY_DLQ = "jar.history.dead." + SUFFIX;
  private static final List<String> PIPE =
      List.of("inbox", "clean", "quarantine", "rejected").stream()
          .map(q -> "jar.pipe." + q + "." + SUFFIX)
          .toList();

  @AfterEach
  void deleteQueues() {
    CachingConnectionFactory connection = RabbitIt.connectionFactory();
    try {
      RabbitAdmin admin = new RabbitAdmin(connection);
      admin.deleteQueue(REQUESTS);
      admin.deleteQueue(DLQ);
      admin.deleteQueue(HISTORY);
      admin.deleteQueue(HISTORY_DLQ);
      admin.deleteExchange(DLX);
      PIPE.forEach(admin::deleteQueue);
    } finally {
      connection.destroy();
    }
  }

  @Test
  void theRunnableJarAnswersScansAndRecordsTheirHistory(@TempDir Path dir) throws Exception {
    int http = TestEnv.freePort();
    String password = "smoke-" + UUID.randomUUID();
    List<String> args =
        List.of(
            "--spring.rabbitmq.port=" + RabbitIt.port(),
            "--avgateway.amqp.request-queue=" + REQUESTS,
            "--avgateway.amqp.dead-letter-exchange=" + DLX,
            "--avgateway.amqp.dead-letter-queue=" + DLQ,
            "--avgateway.history.queue=" + HISTORY,
            "--avgateway.history.dead-letter-queue=" + HISTORY_DLQ,
            "--avgateway.amqp.pipes[0].inbox=" + PIPE.get(0),
            "--avgateway.amqp.pipes[0].clean=" + PIPE.get(1),
            "--avgateway.amqp.pipes[0].quarantine=" + PIPE.get(2),
            "--avgateway.amqp.pipes[0].rejected=" + PIPE.get(3));
    try (JavaProcess gateway = RunnableJar.start(dir, http, password, args)) {
      HttpProbe probe = new HttpProbe(http);
      RunnableJar.awaitReady(gateway, probe, START);
      ScanResult clean;
      ScanResult infected;
      URI broker = URI.create("amqp://guest:guest@127.0.0.1:" + RabbitIt.port());
      try (AmqpScanClient client = AmqpScanClient.connect(broker, REQUESTS, START)) {
        clean = client.scan(ContractFiles.clean(7), "clean.txt").get();
        infected = client.scan(ContractFiles.eicar(), "eicar.com").get();
      }
      assertThat(clean.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(infected.verdict()).isEqualTo(Verdict.INFECTED);
      assertThat(infected.signatures()).containsExactly(ContractFiles.EICAR_SIGNATURE);

      String lookup = "/api/history/by-request-id?transport=amqp&requestId=" + infected.requestId();
      // AMQP replies before history accepts; the document follows within the history timeout.
      HttpProbe.Answer document =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> probe.get(lookup, "avgateway", password), a -> a.status() == 200);
      assertThat(document.body())
          .contains("\"verdict\":\"INFECTED\"", ContractFiles.EICAR_SIGNATURE, "eicar.com");

      // The callers in examples/, with their defaults but for the queue: direct reply-to and a
      // server-named exclusive queue (amq.gen-...), which the default allow-list accepts.
      String url = broker.toString();
      for (String reply : List.of("direct", "server-named")) {
        ExampleCallers.assertCleanAndInfected(
            "pika-" + reply,
            (file, id) -> ExampleCallers.python("amqp_scan.py", args(file, id, url, reply)),
            dir);
        ExampleCallers.assertCleanAndInfected(
            "amqplib-" + reply,
            (file, id) -> ExampleCallers.node("amqp-scan.js", args(file, id, url, reply)),
            dir);
      }

      // The clean-pipe run of the README: a clean file comes out on clean, EICAR on quarantine,
      // each with its body unchanged and the gateway's headers.
      Path cleanFile = Files.write(dir.resolve("pipe-clean.txt"), ContractFiles.clean(13));
      Path eicarFile = Files.write(dir.resolve("pipe-eicar.com"), ContractFiles.eicar());
      ExampleCallers.Run piped = ExampleCallers.python("pipe_publish.py", pipeArgs(cleanFile, url));
      ExampleCallers.Run quarantined =
          ExampleCallers.python("pipe_publish.py", pipeArgs(eicarFile, url));
      assertThat(piped.verdict()).as(piped.output()).isEqualTo("CLEAN");
      assertThat(piped.exitCode()).isZero();
      assertThat(piped.json())
          .contains("\"outlet\": \"" + PIPE.get(1) + "\"", "\"bodyUnchanged\": true", "avSha256");
      assertThat(quarantined.verdict()).as(quarantined.output()).isEqualTo("INFECTED");
      assertThat(quarantined.exitCode()).isEqualTo(1);
      assertThat(quarantined.json())
          .contains("\"outlet\": \"" + PIPE.get(2) + "\"", ContractFiles.EICAR_SIGNATURE);
    }
  }

  private static List<String> pipeArgs(Path file, String url) {
    return List.of(
        file.toString(),
        "--url",
        url,
        "--inbox",
        PIPE.get(0),
        "--clean",
        PIPE.get(1),
        "--quarantine",
        PIPE.get(2),
        "--rejected",
        PIPE.get(3));
  }

  private static List<String> args(Path file, String correlationId, String url, String reply) {
    return List.of(
        file.toString(),
        "--url",
        url,
        "--queue",
        REQUESTS,
        "--reply",
        reply,
        "--correlation-id",
        correlationId);
  }
}
