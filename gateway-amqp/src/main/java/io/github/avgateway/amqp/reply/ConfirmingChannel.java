package io.github.avgateway.amqp.reply;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A broker client channel in confirm mode that tracks its own publishes: each publish gets a future
 * that completes with the broker's confirm, nack or return ({@link PublishOutcome}), and with a
 * failure for every publish still pending when the channel closes. Used by one batch at a time
 * (publishes from one thread); the broker's answers arrive on the connection's thread.
 *
 * <p>A return is matched to its publish by exchange, routing key and body among the publishes
 * pending on this channel (RabbitMQ sends a message's return before its confirm). The bodies the
 * gateway publishes carry the request id and a time, so two pending publishes of the same body to
 * the same queue are the same answer twice. Nothing is added to the message for the matching.
 */
final class ConfirmingChannel implements ConfirmListener, ReturnListener {

  private static final class Pending {
    final CompletableFuture<PublishOutcome> future = new CompletableFuture<>();
    final String exchange;
    final String routingKey;
    final byte[] body;
    final boolean mandatory;
    volatile PublishOutcome.Returned returned;

    Pending(String exchange, String routingKey, byte[] body, boolean mandatory) {
      this.exchange = exchange;
      this.routingKey = routingKey;
      this.body = body;
      this.mandatory = mandatory;
    }
  }

  private final Channel channel;
  private final ConcurrentSkipListMap<Long, Pending> pending = new ConcurrentSkipListMap<>();

  /** Set by the broker's first nack on this channel: see {@link #reusable()}. */
  private volatile boolean nacked;

  private ConfirmingChannel(Channel channel) {
    this.channel = channel;
  }

  /** A new channel on {@code connection}, in confirm mode. */
  static ConfirmingChannel open(Connection connection) throws IOException {
    Channel channel = connection.createChannel();
    if (channel == null) {
      throw new IOException("the connection has no channel left (channel_max)");
    }
    ConfirmingChannel confirming = new ConfirmingChannel(channel);
    channel.addConfirmListener(confirming);
    channel.addReturnListener(confirming);
    channel.addShutdownListener(confirming::closed);
    channel.confirmSelect();
    return confirming;
  }

  /**
   * Publishes {@code body}; the future completes with the broker's answer and never exceptionally.
   * A publish the client could not write completes at once as failed.
   */
  CompletableFuture<PublishOutcome> publish(
      String exchange,
      String routingKey,
      boolean mandatory,
      AMQP.BasicProperties properties,
      byte[] body) {
    Pending publish = new Pending(exchange, routingKey, body, mandatory);
    long seq = channel.getNextPublishSeqNo();
    pending.put(seq, publish);
    try {
      channel.basicPublish(exchange, routingKey, mandatory, properties, body);
    } catch (IOException | AlreadyClosedException e) {
      pending.remove(seq);
      publish.future.complete(new PublishOutcome.Failed("publish failed: " + e.getMessage()));
    }
    return publish.future;
  }

  boolean isOpen() {
    return channel.isOpen();
  }

  /**
   * True when the channel is open and the broker has nacked none of its publishes. A nacked channel
   * is not used again: RabbitMQ 3.10 can keep nacking every publish of a channel to a quorum queue
   * whose leader died (for tens of seconds after a node was killed, while publishes on new channels
   * were confirmed: docs/reliability.md, "Clusters"), and a new channel finds the queue's current
   * leader.
   */
  boolean reusable() {
    return !nacked && channel.isOpen();
  }

  /**
   * Closes the channel once every publish pending on it now has the broker's answer, or after
   * {@code limit} at the latest, on a thread of its own (never on the connection's thread, where a
   * close would wait for itself). Nothing more is published on a retired channel.
   */
  void retire(Duration limit) {
    CompletableFuture<?>[] answers =
        pending.values().stream().map(p -> p.future).toArray(CompletableFuture<?>[]::new);
    CompletableFuture.allOf(answers)
        .completeOnTimeout(null, limit.toNanos(), TimeUnit.NANOSECONDS)
        .whenComplete(
            (done, error) -> Thread.ofVirtual().name("avgateway-amqp-retire").start(this::close));
  }

  /** True when no publish waits for the broker's answer. */
  boolean settled() {
    return pending.isEmpty();
  }

  /** Closes the channel; publishes still pending fail. */
  void close() {
    try {
      channel.close();
    } catch (IOException | TimeoutException | AlreadyClosedException e) {
      // Closed already, or the connection went: either way the channel is gone.
    }
    failAll("the channel was closed");
  }

  @Override
  public void handleAck(long seq, boolean multiple) {
    settle(seq, multiple, true);
  }

  @Override
  public void handleNack(long seq, boolean multiple) {
    nacked = true;
    settle(seq, multiple, false);
  }

  @Override
  public void handleReturn(
      int replyCode,
      String replyText,
      String exchange,
      String routingKey,
      AMQP.BasicProperties properties,
      byte[] body) {
    for (Pending publish : pending.values()) {
      if (publish.mandatory
          && publish.returned == null
          && publish.routingKey.equals(routingKey)
          && publish.exchange.equals(exchange)
          && Arrays.equals(publish.body, body)) {
        publish.returned = new PublishOutcome.Returned(replyCode, replyText);
        return;
      }
    }
  }

  private void settle(long seq, boolean multiple, boolean ack) {
    if (!multiple) {
      Pending publish = pending.remove(seq);
      if (publish != null) {
        complete(publish, ack);
      }
      return;
    }
    Iterator<Map.Entry<Long, Pending>> upTo = pending.headMap(seq, true).entrySet().iterator();
    while (upTo.hasNext()) {
      Pending publish = upTo.next().getValue();
      upTo.remove();
      complete(publish, ack);
    }
  }

  private static void complete(Pending publish, boolean ack) {
    PublishOutcome outcome =
        publish.returned != null
            ? publish.returned
            : ack ? new PublishOutcome.Confirmed() : new PublishOutcome.Nacked();
    publish.future.complete(outcome);
  }

  private void closed(ShutdownSignalException cause) {
    failAll("the channel closed before the broker confirmed: " + reason(cause));
  }

  private void failAll(String why) {
    Iterator<Pending> all = pending.values().iterator();
    while (all.hasNext()) {
      Pending publish = all.next();
      all.remove();
      publish.future.complete(new PublishOutcome.Failed(why));
    }
  }

  private static String reason(ShutdownSignalException cause) {
    return Objects.requireNonNullElse(cause.getMessage(), cause.toString());
  }
}
