package io.github.avgateway.amqp.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.contract.AbstractBadInputFaultContractTests;
import io.github.avgateway.core.contract.BadInputDriver;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.WireNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.QueueBuilder;

/**
 * Bad input on AMQP 0-9-1 (issue 8, scenarios 13–21) under a mixed load on one gateway JVM on a
 * private RabbitMQ node: the shared bad-input contract ({@link AbstractBadInputFaultContractTests}:
 * payload over the limit, nested-archive bomb, encrypted archive, a poison request, refused and
 * deleted reply queues, a canary that must reach no log, here the gateway's, the node's and
 * clamd's), and what only AMQP has: a request without {@code message_id}, an odd content type,
 * headers of odd types, and duplicates sent by the client.
 */
class AmqpBadInputFaultIT extends AbstractBadInputFaultContractTests {

  private static final String FULL_QUEUE = "av.reply.fault.full";
  private static final String GONE_QUEUE = "av.reply.fault.gone";
  private static final Expected MALFORMED =
      Expected.deadLetter(DeadLetterReason.MALFORMED_REQUEST, Verdict.ERROR, false);
  private AmqpFaultRig rig;
  private JavaProcess gateway;
  private BadInputDriver driver;

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
    driver = new Driver();
  }

  @AfterAll
  void stop() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  @Override
  protected BadInputDriver badInputDriver() {
    return driver;
  }

  @Test
  void requestsOnlyAmqpCanMalformAmongOrdinaryLoad() {
    FaultRun run = new FaultRun(rig, "amqp-bad-input").load(100);
    String noIdKey = run.key();
    Message noId = FaultClient.request(noIdKey, bytes(noIdKey), null);
    noId.getMessageProperties().setMessageId(null);
    send(run, noIdKey, MALFORMED, noId);
    String odd = run.key();
    send(run, odd, Expected.clean(), oddType(odd));
    String garbage = run.key();
    send(run, garbage, Expected.clean(), garbageHeaders(garbage));
    run.load(100);
    run.finish(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
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

  private void send(FaultRun run, String key, Expected expected, Message message) {
    rig.client.send(run.ledger, key, expected, message);
  }

  /** The rig's client, node and gateway JVM as the bad-input contract sees them. */
  private final class Driver implements BadInputDriver {

    @Override
    public FaultDriver.Run run(String scenario) {
      return new FaultRun(rig, scenario);
    }

    @Override
    public void sendPoison(FaultDriver.Run run) {
      FaultRun amqp = (FaultRun) run;
      String key = amqp.key();
      Expected poison =
          Expected.deadLetter(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED, Verdict.ERROR, false);
      send(amqp, key, poison, withReplyTo(key, bytes(key), null, FULL_QUEUE));
    }

    @Override
    public int sendRefusedReplyDestinations(FaultDriver.Run run, byte[] body, String filename) {
      FaultRun amqp = (FaultRun) run;
      Expected refused =
          Expected.deadLetter(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, Verdict.ERROR, false);
      List<String> destinations = List.of(AmqpFaultRig.REQUESTS, "billing.invoices");
      for (String replyTo : destinations) {
        String key = amqp.key();
        send(amqp, key, refused, withReplyTo(key, body, filename, replyTo));
      }
      return destinations.size();
    }

    @Override
    public int sendReplyDestinationsGone(FaultDriver.Run run) {
      FaultRun amqp = (FaultRun) run;
      rig.client.admin().declareQueue(QueueBuilder.durable(GONE_QUEUE).build());
      rig.client.admin().deleteQueue(GONE_QUEUE);
      String key = amqp.key();
      send(
          amqp,
          key,
          FaultPayloads.cleanDeadLetter(DeadLetterReason.REPLY_UNROUTABLE),
          withReplyTo(key, bytes(key), null, GONE_QUEUE));
      return 1;
    }

    @Override
    public void sendMalformed(FaultDriver.Run run, String text) {
      FaultRun amqp = (FaultRun) run;
      String key = amqp.key();
      Message noId =
          FaultClient.request(key, text.getBytes(StandardCharsets.US_ASCII), text + ".txt");
      noId.getMessageProperties().setMessageId(null);
      send(amqp, key, MALFORMED, noId);
    }

    @Override
    public Duplicates afterFailedBatch() {
      return Duplicates.FORBIDDEN;
    }

    @Override
    public List<Path> logs() {
      return List.of(gateway.log(), rig.rabbit.logDir(), rig.clamd.logFile());
    }

    @Override
    public AutoCloseable debugLogging() {
      // The gateway's JVM logs at INFO, as it runs in production.
      return () -> {};
    }
  }

  private static Message withReplyTo(String key, byte[] body, String filename, String replyTo) {
    Message message = FaultClient.request(key, body, filename);
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
