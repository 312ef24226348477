package io.github.avgateway.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.client.AmqpScanClient;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.testing.TestGateway;
import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.fault.PrivateRabbit;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.testing.TlsPem;
import io.github.avgateway.core.testing.TlsStores;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * AMQPS against a RabbitMQ node of the test's own with a TLS listener (a throw-away self-signed
 * certificate): the gateway application, trusting that certificate through an SSL bundle, scans a
 * clean file and EICAR through the real clamd for a caller also on TLS. A plain connection to the
 * TLS port, a caller that does not trust the certificate, and a gateway without TLS or trusting
 * another certificate all fail; such a gateway's readiness is DOWN with the broker as the cause.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AmqpTlsIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String QUEUE = "av.scan.requests";
  private static final String PASSWORD = "store-secret";
  private static final String HTTP_SECRET = "tls-http-secret";

  @TempDir static Path dir;
  private TlsStores trustedStores;
  private TlsStores otherStores;
  private TlsPem trusted;
  private TlsPem other;
  private PrivateRabbit rabbit;
  private ConfigurableApplicationContext gateway;

  @BeforeAll
  void start() throws Exception {
    trustedStores = TlsStores.generate(mkdir("trusted"), PASSWORD);
    otherStores = TlsStores.generate(mkdir("other"), PASSWORD);
    trusted = TlsPem.of(trustedStores, dir.resolve("trusted"));
    other = TlsPem.of(otherStores, dir.resolve("other"));
    rabbit = PrivateRabbit.startWithTls(trusted);
    gateway =
        new SpringApplicationBuilder(GatewayAmqpApplication.class)
            .run(
                common(
                    withTls(
                        trusted,
                        "--avgateway.clamd.endpoints=" + TestEnv.clamdEndpoint(),
                        "--avgateway.solr.embedded.home=" + dir.resolve("solr"))));
  }

  @AfterAll
  void stop() throws Exception {
    if (gateway != null) {
      gateway.getBean(IntakeWatcher.class).stop();
      gateway.close();
    }
    if (rabbit != null) {
      rabbit.close();
    }
  }

  @Test
  void aCallerOnTlsGetsCleanAndInfectedFromTheGatewayOnTls() throws Exception {
    await()
        .atMost(WAIT)
        .until(() -> http(gateway).get("/actuator/health/readiness").status() == 200);
    try (AmqpScanClient client =
        AmqpScanClient.connect(amqps(), TlsPem.trusting(trustedStores), QUEUE, WAIT)) {
      ScanResult clean = scan(client, ContractFiles.clean(9));
      ScanResult infected = scan(client, ContractFiles.eicar());
      assertThat(clean.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(infected.verdict()).isEqualTo(Verdict.INFECTED);
      assertThat(infected.signatures()).contains(ContractFiles.EICAR_SIGNATURE);
    }
  }

  @Test
  void aPlainCallerOnTheTlsPortFails() {
    URI plain = URI.create("amqp://guest:guest@127.0.0.1:" + rabbit.amqpsPort());
    try (AmqpScanClient client = AmqpScanClient.connect(plain, QUEUE, WAIT)) {
      assertThatThrownBy(() -> scan(client, ContractFiles.eicar()))
          .as("plain AMQP to the TLS listener")
          .hasStackTraceContaining("AmqpConnectException");
    }
  }

  /** An amqps URI alone once made the RabbitMQ client trust every certificate. */
  @Test
  void aCallerThatDoesNotTrustTheCertificateFails() throws Exception {
    try (AmqpScanClient jvmDefaults = AmqpScanClient.connect(amqps(), QUEUE, WAIT);
        AmqpScanClient wrongCa =
            AmqpScanClient.connect(amqps(), TlsPem.trusting(otherStores), QUEUE, WAIT)) {
      for (AmqpScanClient client : List.of(jvmDefaults, wrongCa)) {
        assertThatThrownBy(() -> scan(client, ContractFiles.eicar()))
            .as("TLS to a certificate the caller does not trust")
            .hasStackTraceContaining("SSLHandshakeException");
      }
    }
  }

  @Test
  void aGatewayWithoutTlsOrTrustingAnotherCertificateIsNotReady() {
    assertNotReady("AmqpIOException", "--spring.rabbitmq.port=" + rabbit.amqpsPort());
    assertNotReady("SSLHandshakeException", withTls(other));
  }

  /** Readiness 503 with the broker DOWN; its detail (shown to the operator) names {@code error}. */
  private void assertNotReady(String error, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--avgateway.clamd.enabled=false", "--avgateway.solr.enabled=false"));
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(TestGateway.class).run(common(all.toArray(String[]::new)))) {
      HttpProbe http = http(app);
      await()
          .atMost(WAIT)
          .untilAsserted(() -> {
            HttpProbe.Answer readiness =
                http.get("/actuator/health/readiness", "operator", HTTP_SECRET);
            assertThat(readiness.status()).isEqualTo(503);
            assertThat(readiness.body())
                .containsPattern("\"rabbit\":\\{\"details\":\\{\"error\":\"[^\"]*" + error)
                .containsPattern("\"rabbit\":\\{[^}]*}[^}]*\"status\":\"DOWN\"");
          });
      app.getBean(IntakeWatcher.class).stop();
    }
  }

  private String[] withTls(TlsPem pem, String... extra) {
    List<String> args = new ArrayList<>(List.of(extra));
    args.addAll(
        List.of(
            "--spring.rabbitmq.port=" + rabbit.amqpsPort(),
            "--spring.rabbitmq.ssl.enabled=true",
            "--spring.rabbitmq.ssl.bundle=rabbit",
            "--spring.ssl.bundle.pem.rabbit.truststore.certificate=file:" + pem.certificate()));
    return args.toArray(String[]::new);
  }

  private static String[] common(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--server.port=0",
            "--avgateway.http.username=operator",
            "--avgateway.http.password=" + HTTP_SECRET));
    return all.toArray(String[]::new);
  }

  private static HttpProbe http(ConfigurableApplicationContext app) {
    return new HttpProbe(app.getEnvironment().getProperty("local.server.port", Integer.class));
  }

  private URI amqps() {
    return URI.create("amqps://guest:guest@localhost:" + rabbit.amqpsPort());
  }

  private Path mkdir(String name) throws Exception {
    return Files.createDirectories(dir.resolve(name));
  }

  private static ScanResult scan(AmqpScanClient client, byte[] body) throws Exception {
    return client.scan(body, "tls.bin").get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }
}
