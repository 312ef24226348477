package io.github.avgateway.amqp.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.fault.TestFiles;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.WireNames;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.QueueBuilder;

/**
 * Issue 8, scenarios 13–21 on AMQP, under a mixed load on one gateway JVM: payload over the limit,
 * nested-archive bomb, encrypted archive, a poison request, malformed requests, spoofed and deleted
 * reply queues, duplicates sent by the client, and canary strings that must reach no log (the
 * gateway's output and the private RabbitMQ node's own log).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AmqpBadInputFaultIT {

  private static final String FULL_QUEUE = "av.reply.fault.full";
  private static final String GONE_QUEUE = "av.reply.fault.gone";
  private final String canary = "canary-" + UUID.randomUUID();
  private AmqpFaultRig rig;
  private JavaProcess gateway;

  @BeforeAll
  void start() throws Exception {
    rig = new AmqpFaultRig("bad-input");
    gateway = rig.startGateway("gw-bad-input");
    // A reply queue that refuses every message: a reply to it is nacked, every time.
    rig.client
        .admin()
        .declareQueue(
            QueueBuilder.durable(FULL_QUEUE)
                .maxLength(0)
                .overflow(QueueBuilder.Overflow.rejectPublish)
                .build());
  }

  @AfterAll
  void stop() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  @Test
  @Order(1)
  void badInputAmongOrdinaryLoad() {
    FaultRun run = new FaultRun(rig, "bad-input").load(200);
    String p = run.prefix;
    send(run, p + "too-large", FaultPayloads.oversized(2 * 1024 * 1024));
    send(run, p + "zip-bomb", FaultPayloads.zipBomb());
    send(run, p + "encrypted", FaultPayloads.encrypted());
    Expected poison =
        Expected.deadLetter(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED, Verdict.ERROR, false);
    send(run, p + "poison", poison, withReplyTo(p + "poison", FULL_QUEUE));
    Expected malformed =
        Expected.deadLetter(DeadLetterReason.MALFORMED_REQUEST, Verdict.ERROR, false);
    Message noId = FaultClient.request(p + "no-id", canaryBody(), canary + ".txt");
    noId.getMessageProperties().setMessageId(null);
    send(run, p + "no-id", malformed, noId);
    send(run, p + "odd-type", Expected.clean(), oddType(p + "odd-type"));
    send(run, p + "garbage-headers", Expected.clean(), garbageHeaders(p + "garbage-headers"));
    Expected spoofed =
        Expected.deadLetter(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, Verdict.ERROR, false);
    send(run, p + "spoof-own", spoofed, withReplyTo(p + "spoof-own", AmqpFaultRig.REQUESTS));
    send(run, p + "spoof-other", spoofed, withReplyTo(p + "spoof-other", "billing.invoices"));
    rig.client.admin().declareQueue(QueueBuilder.durable(GONE_QUEUE).build());
    rig.client.admin().deleteQueue(GONE_QUEUE);
    Expected unroutable = FaultPayloads.cleanDeadLetter(DeadLetterReason.REPLY_UNROUTABLE);
    send(run, p + "reply-gone", unroutable, withReplyTo(p + "reply-gone", GONE_QUEUE));
    send(
        run,
        p + "canary",
        Expected.clean(),
        FaultClient.request(p + "canary", canaryBody(), canary + ".txt"));
    run.load(200);
    run.finish(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  @Order(2)
  void duplicatesSentByTheClientGetOneDocumentAndTheSameVerdict() {
    FaultRun run = new FaultRun(rig, "client-duplicates");
    for (int i = 0; i < 100; i++) {
      Payload payload = FaultPayloads.mixed(run.prefix, i, 5);
      Message message = FaultClient.request(run.prefix + i, payload.body(), payload.filename());
      rig.client.send(run.ledger, run.prefix + i, payload.expected(), message);
      rig.client.resend(message);
    }
    var report = run.finish(Duplicates.CLIENT_REPEATS).assertAsExpected();
    assertThat(report.duplicates()).isEqualTo(100);
  }

  @Test
  @Order(3)
  void canaryNeverReachesALog() {
    List<String> needles = List.of(canary, "CANARY-PAYLOAD");
    assertThat(TestFiles.linesContaining(gateway.log(), needles)).as("gateway log").isEmpty();
    assertThat(TestFiles.linesContaining(rig.rabbit.logDir(), needles))
        .as("RabbitMQ log")
        .isEmpty();
    assertThat(TestFiles.linesContaining(rig.clamd.logFile(), needles)).as("clamd log").isEmpty();
    System.out.println(
        "FAULT amqp/canary: 0 lines with the canary in the gateway, RabbitMQ and clamd logs");
  }

  private void send(FaultRun run, String key, Payload payload) {
    rig.client.send(run.ledger, key, payload);
  }

  private void send(FaultRun run, String key, Expected expected, Message message) {
    rig.client.send(run.ledger, key, expected, message);
  }

  private byte[] canaryBody() {
    return ("CANARY-PAYLOAD " + canary + "\n").getBytes(StandardCharsets.US_ASCII);
  }

  private static Message withReplyTo(String key, String replyTo) {
    Message message = FaultClient.request(key, bytes(key), null);
    message.getMessageProperties().setReplyTo(replyTo);
    return message;
  }

  private static Message oddType(String key) {
    Message message = FaultClient.request(key, bytes(key), null);
    message.getMessageProperties().setContentType("application/x-java-serialized-object");
    message.getMessageProperties().setType("java.util.HashMap");
    return message;
  }

  private static Message garbageHeaders(String key) {
    Message message = FaultClient.request(key, bytes(key), null);
    var props = message.getMessageProperties();
    props.setHeader(WireNames.FILENAME, 12345);
    props.setHeader("x-delivery-count", "not a number");
    props.setHeader("x-nested", Map.of("a", List.of(1, "two", new byte[] {0, 1, 2})));
    props.setHeader("x-binary", new byte[] {(byte) 0xff, 0, (byte) 0xfe});
    return message;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
