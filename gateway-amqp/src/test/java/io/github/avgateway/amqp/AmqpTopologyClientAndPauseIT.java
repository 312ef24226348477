package io.github.avgateway.amqp;

import static io.github.avgateway.amqp.testing.QueueInbox.correlationId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.avgateway.amqp.client.AmqpScanClient;
import io.github.avgateway.amqp.client.ScanCli;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.testing.GatewayItSupport;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.amqp.testing.TestGateway;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.testing.FakeScanner;
import io.github.avgateway.core.wire.ScanResultJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The AMQP gateway against the real RabbitMQ (clamd and history are test doubles here; the contract
 * suite runs with the real ones): topology, replies, the client and CLI, pausing intake.
 */
@SpringBootTest(classes = TestGateway.class)
class AmqpTopologyClientAndPauseIT extends GatewayItSupport {

  private static final Names NAMES = Names.unique("gateway");
  private static final int DELIVERY_LIMIT = 7;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) {
    register(registry, NAMES);
    registry.add("avgateway.amqp.delivery-limit", () -> DELIVERY_LIMIT);
  }

  @Autowired
  @Qualifier("avgatewayAmqpContainer")
  SimpleMessageListenerContainer container;

  @Autowired ConnectionFactory gatewayConnection;

  @Autowired AmqpReplyPublisher replyPublisher;

  @Override
  protected Names names() {
    return NAMES;
  }

  @Test
  void topologyIsDeclaredAsAQuorumQueueWithDeliveryLimitAndDeadLetterExchange() throws Exception {
    Map<String, Object> expected = new HashMap<>();
    expected.put("x-queue-type", "quorum");
    expected.put("x-delivery-limit", DELIVERY_LIMIT);
    expected.put("x-dead-letter-exchange", NAMES.dlx());
    expected.put("x-dead-letter-routing-key", NAMES.requests());
    try (Connection connection = testConnection.getRabbitConnectionFactory().newConnection()) {
      // Re-declaring with the same arguments succeeds only if the queue has exactly these.
      try (Channel channel = connection.createChannel()) {
        channel.queueDeclare(NAMES.requests(), true, false, false, expected);
        channel.queueDeclarePassive(NAMES.dlq());
        channel.exchangeDeclarePassive(NAMES.dlx());
      }
      Channel classic = connection.createChannel();
      Map<String, Object> wrong = new HashMap<>(expected);
      wrong.put("x-queue-type", "classic");
      wrong.remove("x-delivery-limit");
      assertThatThrownBy(() -> classic.queueDeclare(NAMES.requests(), true, false, false, wrong))
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void theClientGetsVerdictsOverDirectReplyTo() throws Exception {
    try (AmqpScanClient client =
        new AmqpScanClient(testConnection, NAMES.requests(), Duration.ofSeconds(30))) {
      ScanResult clean = client.scan(bytes("hello"), "hello.txt").get(30, TimeUnit.SECONDS);
      ScanResult infected =
          client.scan(bytes("x " + FakeScanner.MARKER), "bad.bin").get(30, TimeUnit.SECONDS);

      assertThat(clean.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(infected.verdict()).isEqualTo(Verdict.INFECTED);
      assertThat(infected.signatures()).containsExactly(FakeScanner.SIGNATURE);
      MessageInfo doc = awaitDocument(clean.requestId());
      assertThat(doc.filename()).isEqualTo("hello.txt");
      assertThat(doc.disposition()).isEqualTo(Disposition.REPLIED);
    }
  }

  @Test
  void theCliPrintsVerdictsAndExitsWithTheWorstOne(@TempDir Path dir) throws Exception {
    Path clean = Files.writeString(dir.resolve("clean.txt"), "nothing here");
    Path bad = Files.writeString(dir.resolve("bad.txt"), "a " + FakeScanner.MARKER);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String[] args = {
      "--uri",
      "amqp://guest:guest@127.0.0.1:" + RabbitIt.port(),
      "--queue",
      NAMES.requests(),
      "--timeout",
      "30s",
      clean.toString(),
      bad.toString()
    };

    int code = ScanCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);

    assertThat(code).isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains(clean + ": CLEAN")
        .contains(bad + ": INFECTED " + FakeScanner.SIGNATURE);
  }

  @Test
  void aReplyOnANamedQueueCarriesCorrelationIdHeadersAndJson() {
    String corr = "corr-" + NAMES.requests();
    String id = send(bytes(FakeScanner.MARKER), NAMES.replies(), corr);

    Message reply = replies.await(correlationId(corr), WAIT);
    MessageProperties props = reply.getMessageProperties();
    assertThat(props.getContentType()).isEqualTo("application/json");
    assertThat(props.getHeaders())
        .containsEntry("avVerdict", "INFECTED")
        .containsEntry("avSignature", FakeScanner.SIGNATURE);
    ScanResult result = ScanResultJson.decode(reply.getBody());
    assertThat(result.requestId()).isEqualTo(id);
    assertThat(result.correlationId()).isEqualTo(corr);
  }

  /**
   * The RabbitMQ client refuses, by default, a body of 64 MiB or more, and takes the whole
   * connection down with it: the gateway must receive every body up to its own limit ({@code
   * avgateway.clamd.max-size}, 100 MiB here).
   */
  @Test
  void aFileOfSixtyFourMebibytesIsAnswered() {
    String corr = "large-" + NAMES.requests();
    String id = send(new byte[64 * 1024 * 1024], NAMES.replies(), corr);
    Message reply = replies.await(correlationId(corr), WAIT);
    assertThat(reply.getMessageProperties().getHeaders()).containsEntry("avVerdict", "CLEAN");
    assertThat(awaitDocument(id).sizeBytes()).isEqualTo(64L * 1024 * 1024);
  }

  @Test
  void withoutCorrelationIdTheReplyIsCorrelatedByMessageId() {
    String id = send(bytes("plain"), NAMES.replies(), null);
    Message reply = replies.await(correlationId(id), WAIT);
    assertThat(reply.getMessageProperties().getHeaders()).containsEntry("avVerdict", "CLEAN");
  }

  @Test
  void pausesHoldRequestsInFlightWithoutCostingThemADeliveryAttempt() {
    scanner.delay(Duration.ofMillis(20));
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 90; i++) {
      ids.add(send(bytes("in flight " + i), NAMES.replies(), null));
    }
    try {
      // Three outages while requests are prefetched and in flight.
      for (int outage = 1; outage <= 3; outage++) {
        int answeredBefore = outage * 20;
        await().atMost(WAIT).until(() -> answered(ids) >= answeredBefore);
        gate.down("clamd unreachable (test)");
        await().atMost(WAIT).until(watcher::paused);
        assertThat(container.isRunning()).as("consumers keep their deliveries").isTrue();
        gate.up();
        await().atMost(WAIT).until(() -> !watcher.paused());
      }
    } finally {
      scanner.delay(Duration.ZERO);
      gate.up();
    }
    await().atMost(WAIT).until(() -> answered(ids) == ids.size());
    for (String id : ids) {
      assertThat(awaitDocument(id).redelivered()).as("returned to the queue by a pause").isFalse();
    }
  }

  @Test
  void aBurstIsAnsweredOnEachBatchsOwnChannelsNotOnANewChannelPerReply() {
    CachingConnectionFactory publishing =
        (CachingConnectionFactory)
            ((CachingConnectionFactory) gatewayConnection).getPublisherConnectionFactory();
    AtomicInteger templateChannels = new AtomicInteger();
    publishing.addChannelListener((channel, transactional) -> templateChannels.incrementAndGet());
    int batchChannelsBefore = replyPublisher.channelsOpened();
    gate.down("holding a backlog (test)");
    await().atMost(WAIT).until(watcher::paused);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      ids.add(send(bytes("burst " + i), NAMES.replies(), null));
    }
    gate.up();
    await().atMost(WAIT).until(() -> answered(ids) == ids.size());

    // At most one batch channel per consumer, kept from batch to batch, and no template channel:
    // publishing one reply per cached template channel opened a channel for almost every reply of
    // a full batch, because a channel returns to the cache only once its confirms are in.
    assertThat(replyPublisher.channelsOpened() - batchChannelsBefore)
        .as("batch channels opened for 400 replies")
        .isLessThanOrEqualTo(2);
    assertThat(templateChannels.get()).as("template channels opened for 400 replies").isZero();
  }

  private long answered(List<String> ids) {
    replies.drain();
    return ids.stream().filter(id -> !replies.matching(correlationId(id)).isEmpty()).count();
  }
}
