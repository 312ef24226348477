package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.StdoutTee;
import io.github.avgateway.core.testing.TcpProxy;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.broker.EmbeddedBroker;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.support.RawJmsClient;
import jakarta.jms.Message;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The JMS gateway as operators run it, on the real clamd (behind a proxy the test can stop),
 * embedded Artemis and embedded Solr, with Spring Boot's default logging: health groups, Prometheus
 * metrics after real scans, basic auth on everything but health, readiness DOWN with the reason and
 * consumers paused while clamd is gone or its signatures are too old, and no payload, file name,
 * client id or secret in the log.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JmsOperationsIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String CANARY = "cnry" + UUID.randomUUID().toString().replace("-", "");
  private static final String HTTP_SECRET = "http-" + UUID.randomUUID();
  private static final String SOLR_SECRET = "solr-" + UUID.randomUUID();
  private static final String JMS_SECRET = "jms-" + UUID.randomUUID();
  private static final String READINESS = "/actuator/health/readiness";

  private StdoutTee log;
  private TcpProxy clamd;
  private int clamdProxyPort;
  private Path signatures;
  private ConfigurableApplicationContext app;
  private HttpProbe http;
  private RawJmsClient client;
  private EmbeddedBroker broker;
  private String requestQueue;

  @BeforeAll
  void start() throws Exception {
    log = StdoutTee.install();
    clamd = TcpProxy.to(TestEnv.clamdPort());
    clamdProxyPort = clamd.port();
    Path data = Files.createTempDirectory("avgw-jms-ops");
    signatures = Files.createDirectories(data.resolve("signatures"));
    Files.writeString(signatures.resolve("custom.ndb"), "fresh\n");
    String url = "tcp://127.0.0.1:" + TestEnv.freePort();
    app =
        new SpringApplicationBuilder(GatewayJmsApplication.class)
            .run(
                "--logging.config=classpath:logback-boot-defaults.xml",
                "--avgateway.clamd.endpoints=127.0.0.1:" + clamdProxyPort,
                "--avgateway.clamd.probe-interval=300ms",
                "--avgateway.clamd.signatures.directory=" + signatures,
                "--avgateway.jms.url=" + url,
                "--avgateway.jms.user=gateway",
                "--avgateway.jms.password=" + JMS_SECRET,
                "--avgateway.jms.embedded.data-dir=" + data.resolve("artemis"),
                "--avgateway.jms.embedded.persistent=false",
                "--avgateway.jms.pause-poll-interval=100ms",
                "--avgateway.jms.receive-timeout=200ms",
                "--avgateway.solr.embedded.home=" + data.resolve("solr"),
                "--avgateway.solr.username=history",
                "--avgateway.solr.password=" + SOLR_SECRET,
                "--avgateway.pipeline.cache.enabled=true",
                "--avgateway.http.username=operator",
                "--avgateway.http.password=" + HTTP_SECRET);
    http = new HttpProbe(app.getEnvironment().getProperty("local.server.port", Integer.class));
    broker = app.getBean(EmbeddedBroker.class);
    requestQueue = app.getBean(JmsProperties.class).requestQueue();
    client = new RawJmsClient(new ActiveMQConnectionFactory(url), requestQueue);
  }

  @AfterAll
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (app != null) {
      app.close();
    }
    clamd.close();
    log.close();
  }

  @Test
  @Order(1)
  void readinessIsUpWithRealClamdBrokerAndSolr() {
    await().atMost(WAIT).until(() -> http.get(READINESS).status() == 200);
    HttpProbe.Answer anonymous = http.get(READINESS);
    assertThat(anonymous.body())
        .contains("\"status\":\"UP\"", "\"clamd\"", "\"historyBacklog\"", "\"jms\"")
        .doesNotContain("endpoints")
        .as("Solr is not on the scan path: not part of readiness")
        .doesNotContain("\"history\"", "historyIndexer");
    assertThat(http.get("/actuator/health/liveness").status()).isEqualTo(200);
    HttpProbe.Answer detailed = http.get(READINESS, "operator", HTTP_SECRET);
    assertThat(detailed.body()).contains("127.0.0.1:" + clamdProxyPort, "newest file in");
  }

  @Test
  @Order(2)
  void everythingButHealthNeedsTheConfiguredUser() {
    assertThat(http.get("/actuator/prometheus").status()).isEqualTo(401);
    assertThat(http.get("/actuator/prometheus", "operator", "wrong").status()).isEqualTo(401);
    assertThat(http.get("/actuator/metrics").status()).isEqualTo(401);
    assertThat(http.get("/api/history").status()).isEqualTo(401);
    assertThat(http.get("/").status()).isEqualTo(401);
    assertThat(http.get("/actuator/prometheus", "operator", HTTP_SECRET).status()).isEqualTo(200);
    assertThat(http.get("/actuator/health").status()).isEqualTo(200);
    assertThat(http.get("/actuator/health", "operator", HTTP_SECRET).body())
        .as("the embedded broker's disk floor, in health but not in readiness")
        .contains("\"embeddedBroker\":{", "\"minDiskFreeBytes\":2147483648", "\"diskFreeBytes\":");
    assertThat(http.get(READINESS, "operator", HTTP_SECRET).body())
        .doesNotContain("embeddedBroker");
  }

  @Test
  @Order(3)
  void metricsMoveWithRealScans() throws Exception {
    String before = scrape();
    byte[] clean = (CANARY + " payload " + System.nanoTime()).getBytes(StandardCharsets.US_ASCII);
    assertThat(verdict(client.scan(clean, CANARY + ".txt", CANARY + "-client", 30_000)))
        .isEqualTo("CLEAN");
    assertThat(verdict(client.scan(clean, CANARY + ".txt", CANARY + "-client", 30_000)))
        .isEqualTo("CLEAN");
    assertThat(verdict(client.scan(ContractFiles.eicar(), "e.com", CANARY + "-client", 30_000)))
        .isEqualTo("INFECTED");
    Message text = client.session().createTextMessage(CANARY + " text body");
    assertThat(client.send(text, CANARY + ".txt", CANARY + "-client", 1000)).isNull();

    await().atMost(WAIT).untilAsserted(() -> assertMetricsMoved(before, scrape()));
    String after = scrape();
    assertThat(HttpProbe.has(after, "avgateway_clamd_pool_active")).isTrue();
    assertThat(HttpProbe.sum(after, "avgateway_clamd_endpoint_up")).isEqualTo(1.0);
    assertThat(HttpProbe.sum(after, "avgateway_clamd_signature_age_seconds"))
        .isBetween(0.0, 3600.0);
    assertThat(HttpProbe.has(after, "avgateway_history_queue_depth_documents")).isTrue();
    assertThat(HttpProbe.has(after, "avgateway_history_copies_removed_documents_total")).isTrue();
    assertThat(HttpProbe.has(after, "avgateway_history_copies_watched_documents")).isTrue();
  }

  private static void assertMetricsMoved(String before, String after) {
    assertThat(HttpProbe.delta(before, after, "avgateway_scans_total", "verdict=\"CLEAN\""))
        .isEqualTo(2);
    assertThat(HttpProbe.delta(before, after, "avgateway_scans_total", "verdict=\"INFECTED\""))
        .isEqualTo(1);
    assertThat(
            HttpProbe.delta(
                before, after, "avgateway_dead_letters_total", "reason=\"MALFORMED_REQUEST\""))
        .isEqualTo(1);
    assertThat(HttpProbe.delta(before, after, "avgateway_cache_hits_total")).isEqualTo(1);
    assertThat(HttpProbe.delta(before, after, "avgateway_scan_duration_seconds_count"))
        .isEqualTo(2);
    assertThat(HttpProbe.delta(before, after, "avgateway_scan_bytes_sum")).isGreaterThan(68);
    assertThat(HttpProbe.delta(before, after, "avgateway_request_duration_seconds_count"))
        .isEqualTo(4);
    assertThat(HttpProbe.delta(before, after, "avgateway_history_batch_size_documents_sum"))
        .isEqualTo(4);
    assertThat(
            HttpProbe.delta(
                before,
                after,
                "avgateway_history_batch_duration_seconds_count",
                "outcome=\"accepted\""))
        .isGreaterThanOrEqualTo(1);
  }

  @Test
  @Order(4)
  void clamdGoneMeansReadinessDownWithTheReasonAndConsumersPaused() throws Exception {
    clamd.close();
    await().atMost(WAIT).until(() -> http.get(READINESS).status() == 503);
    assertThat(http.get(READINESS, "operator", HTTP_SECRET).body())
        .contains("no clamd endpoint is up", "PING failed");
    await().atMost(WAIT).until(() -> broker.consumerCount(requestQueue) == 0);
    assertThat(http.get("/actuator/health/liveness").status()).isEqualTo(200);

    clamd = TcpProxy.start(clamdProxyPort, "127.0.0.1", TestEnv.clamdPort());
    await().atMost(WAIT).until(() -> http.get(READINESS).status() == 200);
    await().atMost(WAIT).until(() -> broker.consumerCount(requestQueue) > 0);
  }

  @Test
  @Order(5)
  void oldSignaturesMeanReadinessDownAndConsumersPaused() throws Exception {
    Path file = signatures.resolve("custom.ndb");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofDays(30))));
    await().atMost(WAIT).until(() -> http.get(READINESS).status() == 503);
    assertThat(http.get(READINESS, "operator", HTTP_SECRET).body())
        .contains("clamd signatures are 720 hours old", "avgateway.clamd.signatures.max-age");
    await().atMost(WAIT).until(() -> broker.consumerCount(requestQueue) == 0);

    Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
    await().atMost(WAIT).until(() -> http.get(READINESS).status() == 200);
    await().atMost(WAIT).until(() -> broker.consumerCount(requestQueue) > 0);
  }

  @Test
  @Order(6)
  void theLogHoldsNoPayloadFileNameClientIdOrSecret() {
    String text = log.text();
    assertThat(text).as("the captured log").contains("av-gateway JMS ready");
    assertThat(text)
        .doesNotContain(CANARY)
        .doesNotContain(HTTP_SECRET)
        .doesNotContain(SOLR_SECRET)
        .doesNotContain(JMS_SECRET);
  }

  private String scrape() {
    return http.prometheus("operator", HTTP_SECRET);
  }

  private static String verdict(Message reply) throws Exception {
    assertThat(reply).as("a reply").isNotNull();
    return reply.getStringProperty("avVerdict");
  }
}
