package io.github.avgateway.amqp;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Publishes replies, dead-letters and history messages with a correlated publisher confirm each, on
 * the factory's publisher connection (so that a broker blocking publishers does not stall the
 * consumers). The returned future completes with the broker's answer; it never completes
 * exceptionally.
 *
 * <p>Replies to queues and dead-letters are published with {@code mandatory} set: a message the
 * broker could not route is reported as {@link PublishOutcome.Returned} (RabbitMQ sends the return
 * before the confirm, and Spring AMQP attaches it to the confirm's correlation). Replies to direct
 * reply-to names ({@code amq.rabbitmq.reply-to.*}) are published without it: RabbitMQ 3.x returns
 * such a message as unroutable even when it delivered it (rabbitmq-server issue 6124), and drops it
 * when the caller has gone, which is the caller's choice.
 *
 * <p>A consumer publishes its batch inside {@link #onBatchChannels(Runnable)}: its replies,
 * forwards and history message then share one channel (one more for direct reply-to) for the whole
 * batch, instead of one cached channel per message. With correlated confirms a channel goes back to
 * the cache only once its confirms are in: per-message publishing handed every channel to an
 * executor thread to wait for its confirm, spread a batch's replies over as many channels (each
 * confirmed on its own), and opened and closed channels whenever more were waiting than the cache
 * keeps (about 60 a second at 2,800 requests a second). Dead-letters never use the batch's channel:
 * publishing to a dead-letter exchange that was deleted is a channel error, which would fail every
 * other pending confirm on that channel.
 */
public final class AmqpReplyPublisher {

  /** Prefix of the names RabbitMQ gives direct reply-to consumers. */
  public static final String DIRECT_REPLY_TO_PREFIX = "amq.rabbitmq.reply-to";

  /**
   * Correlation ids of this JVM's publishes: they match a return to its publish among the ones
   * pending (Spring AMQP's {@code spring_returned_message_correlation}), so unique within the JVM
   * is enough; a random UUID per publish read {@code /dev/urandom} on every reply.
   */
  private static final AtomicLong NEXT_ID = new AtomicLong();

  private final RabbitTemplate mandatory;
  private final RabbitTemplate direct;
  private final RabbitTemplate deadLetters;
  private final String deadLetterExchange;
  private final String deadLetterRoutingKey;

  /**
   * @param connectionFactory a factory with correlated publisher confirms and returns enabled
   */
  public AmqpReplyPublisher(
      ConnectionFactory connectionFactory, String deadLetterExchange, String deadLetterRoutingKey) {
    this.mandatory = template(connectionFactory, true);
    this.direct = template(connectionFactory, false);
    this.deadLetters = template(connectionFactory, true);
    this.deadLetterExchange = deadLetterExchange;
    this.deadLetterRoutingKey = deadLetterRoutingKey;
  }

  /**
   * Runs {@code batch} with this thread's replies, forwards and history messages on channels kept
   * for it (one for mandatory publishes, one for direct reply-to). {@code batch} should wait for
   * its confirms before it returns, so that the channels go back to the cache with none pending.
   * When no channel can be had (the broker is gone), {@code batch} runs without them and each
   * publish reports its own failure, as outside a batch.
   */
  public void onBatchChannels(Runnable batch) {
    boolean[] ran = {false};
    try {
      mandatory.invoke(m ->
          direct.invoke(d -> {
            ran[0] = true;
            batch.run();
            return null;
          }));
    } catch (AmqpException e) {
      if (ran[0]) {
        throw e;
      }
      batch.run();
    }
  }

  /** Publishes {@code reply} to {@code queue} through the default exchange. */
  public CompletableFuture<PublishOutcome> reply(String queue, Message reply) {
    RabbitTemplate template = queue.startsWith(DIRECT_REPLY_TO_PREFIX) ? direct : mandatory;
    return publish(template, "", queue, reply);
  }

  /** Publishes {@code message} to {@code queue} through the default exchange, mandatory. */
  public CompletableFuture<PublishOutcome> toQueue(String queue, Message message) {
    return publish(mandatory, "", queue, message);
  }

  /** Publishes {@code deadLetter} to the dead-letter exchange. */
  public CompletableFuture<PublishOutcome> deadLetter(Message deadLetter) {
    return publish(deadLetters, deadLetterExchange, deadLetterRoutingKey, deadLetter);
  }

  private static RabbitTemplate template(ConnectionFactory factory, boolean mandatory) {
    RabbitTemplate template = new RabbitTemplate(factory);
    template.setMandatory(mandatory);
    template.setUsePublisherConnection(true);
    // Returns are read from each send's CorrelationData; this callback only keeps the template
    // quiet.
    template.setReturnsCallback(returned -> {});
    return template;
  }

  private static CompletableFuture<PublishOutcome> publish(
      RabbitTemplate template, String exchange, String routingKey, Message message) {
    CorrelationData correlation = new CorrelationData(Long.toString(NEXT_ID.incrementAndGet(), 36));
    try {
      template.send(exchange, routingKey, message, correlation);
    } catch (AmqpException e) {
      return CompletableFuture.completedFuture(
          new PublishOutcome.Failed("publish failed: " + e.getMessage()));
    }
    return correlation.getFuture().handle((confirm, error) -> outcome(correlation, confirm, error));
  }

  private static PublishOutcome outcome(
      CorrelationData correlation, CorrelationData.Confirm confirm, Throwable error) {
    if (error != null) {
      return new PublishOutcome.Failed("no confirm: " + error.getMessage());
    }
    ReturnedMessage returned = correlation.getReturned();
    if (returned != null) {
      return new PublishOutcome.Returned(returned.getReplyCode(), returned.getReplyText());
    }
    if (confirm.ack()) {
      return new PublishOutcome.Confirmed();
    }
    // The broker's own nack carries no reason; Spring AMQP gives one when it nacks the pending
    // confirms of a channel that closed, and then whether the broker has the message is unknown.
    return confirm.reason() == null
        ? new PublishOutcome.Nacked()
        : new PublishOutcome.Failed("not confirmed: " + confirm.reason());
  }
}
