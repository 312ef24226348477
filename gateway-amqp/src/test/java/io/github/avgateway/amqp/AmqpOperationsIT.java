package io.github.avgateway.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.StdoutTee;
import io.github.avgateway.core.testing.TestEnv;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The AMQP gateway as operators run it, on the real RabbitMQ, clamd and embedded Solr, with Spring
 * Boot's default logging: readiness with the broker and the history backlog (not Solr), basic auth
 * on everything but health, Prometheus metrics after real scans, and no payload, file name, client
 * id or secret in the log.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AmqpOperationsIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String CANARY = "cnry" + UUID.randomUUID().toString().replace("-", "");
  private static final String HTTP_SECRET = "http-" + UUID.randomUUID();
  private static final String SOLR_SECRET = "solr-" + UUID.randomUUID();
  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "ops.requests." + SUFFIX;
  private static final String DLX = "ops.dlx." + SUFFIX;
  private static final String DLQ = "ops.dead." + SUFFIX;
  private static final String REPLIES = "av.reply.ops." + SUFFIX;
  private static final String HISTORY = "ops.history." + SUFFIX;
  private static final String HISTORY_DLQ = "ops.history.dlq." + SUFFIX;

  private StdoutTee log;
  private ConfigurableApplicationContext app;
  private HttpProbe http;
  private CachingConnectionFactory connection;
  private RabbitTemplate rabbit;
  private RabbitAdmin admin;

  @BeforeAll
  void start() throws Exception {
    log = StdoutTee.install();
    Path data = Files.createTempDirectory("avgw-amqp-ops");
    app =
        new SpringApplicationBuilder(GatewayAmqpApplication.class)
            .run(
                "--logging.config=classpath:logback-boot-defaults.xml",
                "--spring.rabbitmq.port=" + RabbitIt.port(),
                "--avgateway.clamd.endpoints=" + TestEnv.clamdEndpoint(),
                "--avgateway.amqp.request-queue=" + REQUESTS,
                "--avgateway.amqp.dead-letter-exchange=" + DLX,
                "--avgateway.amqp.dead-letter-queue=" + DLQ,
                "--avgateway.history.queue=" + HISTORY,
                "--avgateway.history.dead-letter-queue=" + HISTORY_DLQ,
                "--avgateway.solr.embedded.home=" + data.resolve("solr"),
                "--avgateway.solr.username=history",
                "--avgateway.solr.password=" + SOLR_SECRET,
                "--avgateway.http.username=operator",
                "--avgateway.http.password=" + HTTP_SECRET);
    http = new HttpProbe(app.getEnvironment().getProperty("local.server.port", Integer.class));
    connection = RabbitIt.connectionFactory();
    rabbit = new RabbitTemplate(connection);
    admin = new RabbitAdmin(connection);
    admin.declareQueue(new Queue(REPLIES, false, false, false));
  }

  @AfterAll
  void stop() {
    if (app != null) {
      app.getBean(IntakeWatcher.class).stop();
      app.getBean(HistoryIndexerRunner.class).stop();
      app.close();
    }
    if (admin != null) {
      admin.deleteQueue(REPLIES);
      admin.deleteQueue(REQUESTS);
      admin.deleteQueue(DLQ);
      admin.deleteQueue(HISTORY);
      admin.deleteQueue(HISTORY_DLQ);
      admin.deleteExchange(DLX);
      connection.destroy();
    }
    log.close();
  }

  @Test
  @Order(1)
  void readinessIsUpWithRealClamdRabbitMqAndTheHistoryBacklogButNotSolr() {
    await().atMost(WAIT).until(() -> http.get("/actuator/health/readiness").status() == 200);
    assertThat(http.get("/actuator/health/readiness").body())
        .contains("\"status\":\"UP\"", "\"clamd\"", "\"historyBacklog\"", "\"rabbit\"")
        .doesNotContain("\"history\"", "\"historyIndexer\"");
    assertThat(http.get("/actuator/health").body())
        .contains("\"history\"", "\"historyIndexer\"", "\"historyBacklog\"");
    assertThat(http.get("/actuator/health/liveness").status()).isEqualTo(200);
  }

  @Test
  @Order(2)
  void everythingButHealthNeedsTheConfiguredUser() {
    assertThat(http.get("/actuator/prometheus").status()).isEqualTo(401);
    assertThat(http.get("/actuator/prometheus", "operator", "wrong").status()).isEqualTo(401);
    assertThat(http.get("/api/history").status()).isEqualTo(401);
    assertThat(http.get("/actuator/prometheus", "operator", HTTP_SECRET).status()).isEqualTo(200);
  }

  @Test
  @Order(3)
  void metricsMoveWithRealScans() {
    String before = scrape();
    byte[] clean = (CANARY + " payload").getBytes(StandardCharsets.US_ASCII);
    assertThat(scan(clean)).isEqualTo("CLEAN");
    assertThat(scan(ContractFiles.eicar())).isEqualTo("INFECTED");

    await()
        .atMost(WAIT)
        .untilAsserted(() -> {
          String after = scrape();
          assertThat(HttpProbe.delta(before, after, "avgateway_scans_total", "transport=\"amqp\""))
              .isEqualTo(2);
          assertThat(HttpProbe.delta(before, after, "avgateway_scan_duration_seconds_count"))
              .isEqualTo(2);
          assertThat(HttpProbe.delta(before, after, "avgateway_history_batch_size_documents_sum"))
              .isEqualTo(2);
          assertThat(HttpProbe.delta(before, after, "avgateway_history_indexed_documents_total"))
              .isEqualTo(2);
        });
    assertThat(scrape())
        .contains(
            "avgateway_history_backlog_messages",
            "avgateway_history_backlog_documents",
            "avgateway_history_indexer_lag_seconds");
    assertThat(HttpProbe.sum(scrape(), "avgateway_clamd_endpoint_up")).isEqualTo(1.0);
  }

  @Test
  @Order(4)
  void theLogHoldsNoPayloadFileNameClientIdOrSecret() {
    String text = log.text();
    assertThat(text).as("the captured log").contains("Tomcat started on port");
    assertThat(text).doesNotContain(CANARY).doesNotContain(HTTP_SECRET).doesNotContain(SOLR_SECRET);
  }

  private String scan(byte[] body) {
    MessageProperties props = new MessageProperties();
    props.setMessageId(UUID.randomUUID().toString());
    props.setReplyTo(REPLIES);
    props.setAppId(CANARY + "-client");
    props.setHeader("avFilename", CANARY + ".txt");
    rabbit.send("", REQUESTS, new Message(body, props));
    Message reply = rabbit.receive(REPLIES, WAIT.toMillis());
    assertThat(reply).as("a reply").isNotNull();
    return (String) reply.getMessageProperties().getHeaders().get("avVerdict");
  }

  private String scrape() {
    return http.prometheus("operator", HTTP_SECRET);
  }
}
