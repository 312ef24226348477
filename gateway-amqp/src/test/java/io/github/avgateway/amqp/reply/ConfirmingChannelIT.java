package io.github.avgateway.amqp.reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.avgateway.amqp.testing.RabbitIt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

/**
 * The batch channel's confirms, returns, nacks and failures against the real RabbitMQ, and the
 * publisher's rule that a channel the broker nacked on is not used for another batch.
 */
class ConfirmingChannelIT {

  private static final AMQP.BasicProperties PERSISTENT =
      new AMQP.BasicProperties.Builder().deliveryMode(2).build();

  private final String suffix = RabbitIt.uniqueSuffix();
  private final String queue = "av.it.confirming." + suffix;
  private final String nowhere = "av.it.nowhere." + suffix;
  private CachingConnectionFactory factory;
  private Connection connection;
  private Channel admin;

  @BeforeEach
  void connect() throws Exception {
    factory = RabbitIt.connectionFactory();
    connection = factory.createConnection().getDelegate();
    admin = connection.createChannel();
    admin.queueDeclare(queue, false, false, false, null);
  }

  @AfterEach
  void disconnect() throws Exception {
    connection.createChannel().queueDelete(queue);
    factory.destroy();
  }

  @Test
  void routedPublishesAreConfirmedUnroutableMandatoryOnesReturned() throws Exception {
    ConfirmingChannel channel = ConfirmingChannel.open(connection);
    List<CompletableFuture<PublishOutcome>> routed = new ArrayList<>();
    List<CompletableFuture<PublishOutcome>> returned = new ArrayList<>();
    List<CompletableFuture<PublishOutcome>> dropped = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      routed.add(channel.publish("", queue, true, PERSISTENT, bytes("routed " + i)));
      returned.add(channel.publish("", nowhere, true, PERSISTENT, bytes("returned " + i)));
      dropped.add(channel.publish("", nowhere, false, PERSISTENT, bytes("dropped " + i)));
    }
    for (int i = 0; i < 50; i++) {
      assertThat(outcome(routed.get(i))).isEqualTo(new PublishOutcome.Confirmed());
      assertThat(outcome(returned.get(i))).isEqualTo(new PublishOutcome.Returned(312, "NO_ROUTE"));
      assertThat(outcome(dropped.get(i))).isEqualTo(new PublishOutcome.Confirmed());
    }
    assertThat(channel.settled()).isTrue();
    assertThat(admin.messageCount(queue)).isEqualTo(50);
  }

  @Test
  void aReturnIsMatchedToItsOwnPublishAmongThoseToTheSameQueue() throws Exception {
    ConfirmingChannel channel = ConfirmingChannel.open(connection);
    CompletableFuture<PublishOutcome> delivered =
        channel.publish("", queue, true, PERSISTENT, bytes("before the queue went"));
    assertThat(outcome(delivered)).isEqualTo(new PublishOutcome.Confirmed());
    CompletableFuture<PublishOutcome> pendingWhileDeleted =
        channel.publish("", queue, true, PERSISTENT, bytes("while it goes"));
    admin.queueDelete(queue);
    CompletableFuture<PublishOutcome> lost =
        channel.publish("", queue, true, PERSISTENT, bytes("after the queue went"));
    assertThat(outcome(lost)).isEqualTo(new PublishOutcome.Returned(312, "NO_ROUTE"));
    assertThat(outcome(pendingWhileDeleted))
        .isIn(new PublishOutcome.Confirmed(), new PublishOutcome.Returned(312, "NO_ROUTE"));
    admin.queueDeclare(queue, false, false, false, null);
  }

  @Test
  void aPublishTheQueueRejectsIsNackedAndTheChannelIsNotReusedAndRetiringClosesIt()
      throws Exception {
    String bounded = boundedQueue();
    ConfirmingChannel channel = ConfirmingChannel.open(connection);
    assertThat(outcome(channel.publish("", bounded, true, PERSISTENT, bytes("first"))))
        .isEqualTo(new PublishOutcome.Confirmed());
    assertThat(channel.reusable()).as("reusable after a confirm").isTrue();
    assertThat(outcome(channel.publish("", bounded, true, PERSISTENT, bytes("second"))))
        .isEqualTo(new PublishOutcome.Nacked());
    assertThat(channel.reusable()).as("reusable after a nack").isFalse();
    assertThat(channel.isOpen()).isTrue();

    channel.retire(Duration.ofSeconds(30));
    await().atMost(Duration.ofSeconds(10)).until(() -> !channel.isOpen());
    admin.queueDelete(bounded);
  }

  /** A queue of this test that holds one message and nacks every publish past it. */
  private String boundedQueue() throws java.io.IOException {
    String bounded = queue + ".bounded";
    admin.queueDeclare(
        bounded, false, false, true, Map.of("x-max-length", 1, "x-overflow", "reject-publish"));
    return bounded;
  }

  @Test
  void aBatchChannelTheBrokerNackedIsReplacedForTheNextBatch() throws Exception {
    String bounded = boundedQueue();
    AmqpReplyPublisher publisher = new AmqpReplyPublisher(factory, "", bounded);
    Message message = new Message(bytes("reply"), new MessageProperties());

    assertThat(publisher.onBatchChannels(() -> settle(publisher.toQueue(bounded, message))))
        .isEqualTo(new PublishOutcome.Confirmed());
    assertThat(publisher.onBatchChannels(() -> settle(publisher.toQueue(bounded, message))))
        .isEqualTo(new PublishOutcome.Nacked());
    assertThat(publisher.channelsOpened()).as("the confirmed batch's channel kept").isEqualTo(1);
    admin.queuePurge(bounded);
    assertThat(publisher.onBatchChannels(() -> settle(publisher.toQueue(bounded, message))))
        .isEqualTo(new PublishOutcome.Confirmed());
    assertThat(publisher.channelsOpened()).as("a new channel after the nacked one").isEqualTo(2);
    admin.queueDelete(bounded);
  }

  private static PublishOutcome settle(CompletableFuture<PublishOutcome> future) {
    return future.orTimeout(10, TimeUnit.SECONDS).join();
  }

  @Test
  void whenTheBrokerClosesTheChannelItsPublishesFail() throws Exception {
    ConfirmingChannel channel = ConfirmingChannel.open(connection);
    CompletableFuture<PublishOutcome> toMissingExchange =
        channel.publish(nowhere, "any", true, PERSISTENT, bytes("channel error"));
    assertThat(outcome(toMissingExchange)).isInstanceOf(PublishOutcome.Failed.class);
    assertThat(channel.isOpen()).isFalse();
    assertThat(outcome(channel.publish("", queue, true, PERSISTENT, bytes("after"))))
        .isInstanceOf(PublishOutcome.Failed.class);
    assertThat(channel.settled()).isTrue();
  }

  private static PublishOutcome outcome(CompletableFuture<PublishOutcome> future) throws Exception {
    return future.get(10, TimeUnit.SECONDS);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
