package io.github.avgateway.amqp.pipe;

import static io.github.avgateway.amqp.testing.QueueInbox.correlationId;
import static io.github.avgateway.amqp.testing.QueueInbox.messageId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.GatewayAmqpApplication;
import io.github.avgateway.amqp.history.HistoryIndexerRunner;
import io.github.avgateway.amqp.intake.IntakeWatcher;
import io.github.avgateway.amqp.testing.QueueInbox;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.wire.ScanResultJson;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Clean-pipe mode against the real RabbitMQ, the real clamd (offline signatures) and an embedded
 * Solr, in one gateway: files put on a pipe's inbox come out on clean, quarantine or rejected with
 * the producer's message intact plus the gateway's headers; a missing outlet dead-letters the file
 * as {@code FORWARD_UNROUTABLE}; every file has a history document with its disposition.
 */
@SpringBootTest(classes = GatewayAmqpApplication.class)
@DirtiesContext
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AmqpCleanPipeIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final int MAX_SIZE = 64 * 1024;
  private static final String SUFFIX = RabbitIt.uniqueSuffix();
  private static final String REQUESTS = "pipe.requests." + SUFFIX;
  private static final String DLX = "pipe.dlx." + SUFFIX;
  private static final String DLQ = "pipe.dead." + SUFFIX;
  private static final String HISTORY = "pipe.history." + SUFFIX;
  private static final String HISTORY_DLQ = "pipe.history.dlq." + SUFFIX;
  private static final String REPLIES = "av.reply.pipe." + SUFFIX;
  private static final List<String> PIPE = pipe("uploads");
  private static final List<String> BROKEN = pipe("broken");

  /** Inbox, clean, quarantine, rejected of a pipe named {@code name}. */
  private static List<String> pipe(String name) {
    return List.of("inbox", "clean", "quarantine", "rejected").stream()
        .map(role -> name + "." + role + "." + SUFFIX)
        .toList();
  }

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    registry.add("spring.rabbitmq.port", RabbitIt::port);
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("avgateway.clamd.max-size", () -> MAX_SIZE + "B");
    registry.add("avgateway.solr.mode", () -> "embedded");
    registry.add("avgateway.solr.embedded.home", () -> "target/pipe-solr-" + SUFFIX);
    registry.add("avgateway.amqp.request-queue", () -> REQUESTS);
    registry.add("avgateway.amqp.dead-letter-exchange", () -> DLX);
    registry.add("avgateway.amqp.dead-letter-queue", () -> DLQ);
    registry.add("avgateway.amqp.consumers", () -> 2);
    registry.add("avgateway.history.queue", () -> HISTORY);
    registry.add("avgateway.history.dead-letter-queue", () -> HISTORY_DLQ);
    register(registry, 0, PIPE);
    register(registry, 1, BROKEN);
  }

  private static void register(DynamicPropertyRegistry registry, int i, List<String> queues) {
    String prefix = "avgateway.amqp.pipes[" + i + "].";
    registry.add(prefix + "inbox", () -> queues.get(0));
    registry.add(prefix + "clean", () -> queues.get(1));
    registry.add(prefix + "quarantine", () -> queues.get(2));
    registry.add(prefix + "rejected", () -> queues.get(3));
  }

  @Autowired HistoryQueries queries;
  @Autowired AmqpAdmin admin;
  @Autowired IntakeWatcher watcher;
  @Autowired HistoryIndexerRunner indexer;

  private CachingConnectionFactory connection;
  private RabbitTemplate rabbit;
  private QueueInbox clean;
  private QueueInbox quarantine;
  private QueueInbox rejected;
  private QueueInbox deadLetters;
  private QueueInbox replies;

  @BeforeAll
  void connect() {
    connection = RabbitIt.connectionFactory();
    rabbit = new RabbitTemplate(connection);
    admin.declareQueue(new Queue(REPLIES, false, false, false));
    clean = new QueueInbox(rabbit, PIPE.get(1));
    quarantine = new QueueInbox(rabbit, PIPE.get(2));
    rejected = new QueueInbox(rabbit, PIPE.get(3));
    deadLetters = new QueueInbox(rabbit, DLQ);
    replies = new QueueInbox(rabbit, REPLIES);
  }

  @AfterAll
  void cleanUp() {
    // Stop consuming first: a running container would declare a deleted queue again.
    watcher.stop();
    indexer.stop();
    for (String queue : List.of(REQUESTS, DLQ, HISTORY, HISTORY_DLQ, REPLIES)) {
      admin.deleteQueue(queue);
    }
    PIPE.forEach(admin::deleteQueue);
    BROKEN.forEach(admin::deleteQueue);
    admin.deleteExchange(DLX);
    connection.destroy();
  }

  @Test
  void aCleanFileArrivesOnCleanAsTheProducerSentItWithTheGatewaysHeaders() {
    byte[] body = ContractFiles.clean(System.nanoTime());
    MessageProperties props = props("clean");
    props.setCorrelationId("corr-" + props.getMessageId());
    props.setContentType("text/plain");
    props.setHeader("tenant", "acme");
    props.setHeader("avFilename", "notes.txt");
    String id = send(PIPE, body, props);

    Message out = clean.await(messageId(id), WAIT);
    MessageProperties got = out.getMessageProperties();
    assertThat(out.getBody()).isEqualTo(body);
    assertThat(got.getCorrelationId()).isEqualTo("corr-" + id);
    assertThat(got.getContentType()).isEqualTo("text/plain");
    Map<String, Object> headers = got.getHeaders();
    assertThat(headers)
        .containsEntry("tenant", "acme")
        .containsEntry("avFilename", "notes.txt")
        .containsEntry("avVerdict", "CLEAN")
        .containsEntry("avSha256", ContractFiles.sha256(body))
        .containsKey("avScannedAt")
        .doesNotContainKeys("avSignature", "avReason");
    assertThat(headers.get("avEngine").toString()).startsWith("ClamAV");
    MessageInfo doc = awaitDocument(id, Disposition.FORWARDED_CLEAN);
    assertThat(doc.filename()).isEqualTo("notes.txt");
    assertThat(elsewhere(id, clean)).as("on no other outlet").isEmpty();
  }

  @Test
  void eicarGoesToQuarantineWithItsSignature() {
    String id = send(PIPE, ContractFiles.eicar(), props("eicar"));

    Message out = quarantine.await(messageId(id), WAIT);
    assertThat(out.getBody()).isEqualTo(ContractFiles.eicar());
    assertThat(out.getMessageProperties().getHeaders())
        .containsEntry("avVerdict", "INFECTED")
        .containsEntry("avSignature", ContractFiles.EICAR_SIGNATURE);
    assertThat(awaitDocument(id, Disposition.QUARANTINED).verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(elsewhere(id, quarantine)).isEmpty();
  }

  @Test
  void aFileOverTheSizeLimitIsRejectedAsTooLarge() {
    byte[] body = ContractFiles.large(MAX_SIZE + 1, 7);
    String id = send(PIPE, body, props("large"));

    Message out = rejected.await(messageId(id), WAIT);
    assertThat(out.getBody()).isEqualTo(body);
    assertThat(out.getMessageProperties().getHeaders())
        .containsEntry("avVerdict", "UNSCANNABLE")
        .containsEntry("avReason", Reason.TOO_LARGE.name());
    assertThat(awaitDocument(id, Disposition.REJECTED).reason()).isEqualTo(Reason.TOO_LARGE);
    assertThat(elsewhere(id, rejected)).isEmpty();
  }

  @Test
  void aProducerAskingForAReplyGetsOneAndTheFileIsForwardedToo() {
    MessageProperties props = props("reply");
    props.setReplyTo(REPLIES);
    String id = send(PIPE, ContractFiles.clean(System.nanoTime()), props);

    Message forwarded = clean.await(messageId(id), WAIT);
    assertThat(forwarded.getMessageProperties().getReplyTo()).isEqualTo(REPLIES);
    Message reply = replies.await(correlationId(id), WAIT);
    assertThat(reply.getMessageProperties().getHeaders()).containsEntry("avVerdict", "CLEAN");
    assertThat(ScanResultJson.decode(reply.getBody()).requestId()).isEqualTo(id);
    awaitDocument(id, Disposition.FORWARDED_CLEAN);
  }

  @Test
  void aVerdictForgedByTheProducerIsReplaced() {
    MessageProperties props = props("forged");
    props.setHeader("avVerdict", "CLEAN");
    props.setHeader("avSha256", "forged");
    String id = send(PIPE, ContractFiles.eicar(), props);

    Message out = quarantine.await(messageId(id), WAIT);
    assertThat(out.getMessageProperties().getHeaders())
        .containsEntry("avVerdict", "INFECTED")
        .containsEntry("avSha256", ContractFiles.sha256(ContractFiles.eicar()));
    awaitDocument(id, Disposition.QUARANTINED);
    assertThat(elsewhere(id, quarantine)).as("never on clean").isEmpty();
  }

  @Test
  void aFileWhoseOutletDoesNotExistIsDeadLetteredAsForwardUnroutable() {
    // One file through first, so that the gateway's publisher connection is open: the topology is
    // declared again on every new connection, which would bring the deleted queue back.
    String first = send(BROKEN, ContractFiles.clean(System.nanoTime()), props("routable"));
    new QueueInbox(rabbit, BROKEN.get(1)).await(messageId(first), WAIT);
    admin.deleteQueue(BROKEN.get(1));

    String id = send(BROKEN, ContractFiles.clean(System.nanoTime()), props("unroutable"));

    Message dead = deadLetters.await(messageId(id), WAIT);
    assertThat(dead.getMessageProperties().getHeaders())
        .containsEntry("avReason", DeadLetterReason.FORWARD_UNROUTABLE.name())
        .containsEntry("avVerdict", "CLEAN");
    assertThat(dead.getMessageProperties().getHeaders().get("avReasonDetail").toString())
        .contains(BROKEN.get(1));
    MessageInfo doc = awaitDocument(id, Disposition.DEAD_LETTERED);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.FORWARD_UNROUTABLE);
  }

  private static MessageProperties props(String kind) {
    MessageProperties props = new MessageProperties();
    props.setMessageId("pipe-" + kind + "-" + UUID.randomUUID());
    return props;
  }

  private String send(List<String> pipe, byte[] body, MessageProperties props) {
    rabbit.send("", pipe.get(0), new Message(body, props));
    return props.getMessageId();
  }

  /** The history document of {@code id} once it shows {@code disposition}. */
  private MessageInfo awaitDocument(String id, Disposition disposition) {
    await("history of " + id)
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(100))
        .until(() ->
            queries
                .byRequestId("amqp", id)
                .filter(doc -> doc.disposition() == disposition)
                .isPresent());
    return queries.byRequestId("amqp", id).orElseThrow();
  }

  /** Messages of {@code id} on the outlets other than {@code expected}, or dead-lettered. */
  private List<Message> elsewhere(String id, QueueInbox expected) {
    return List.of(clean, quarantine, rejected, deadLetters).stream()
        .filter(inbox -> inbox != expected)
        .flatMap(inbox -> inbox.matching(messageId(id)).stream())
        .toList();
  }
}
