package io.github.avgateway.amqp.reply;

import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.trace.TraceStep;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.support.DefaultMessagePropertiesConverter;
import org.springframework.amqp.rabbit.support.MessagePropertiesConverter;

/**
 * Publishes replies, dead-letters and history messages with a correlated publisher confirm each, on
 * the factory's publisher connection (so that a broker blocking publishers does not stall the
 * consumers). The returned future completes with the broker's answer; it never completes
 * exceptionally.
 *
 * <p>Replies to queues and dead-letters are published with {@code mandatory} set: a message the
 * broker could not route is reported as {@link PublishOutcome.Returned} (RabbitMQ sends the return
 * before the confirm; the batch's channel, or Spring AMQP outside a batch, attaches it to the
 * publish it belongs to). Replies to direct reply-to names ({@code amq.rabbitmq.reply-to.*}) are
 * published without it: RabbitMQ 3.x returns such a message as unroutable even when it delivered it
 * (rabbitmq-server issue 6124), and drops it when the caller has gone, which is the caller's
 * choice.
 *
 * <p>A consumer publishes its batch inside {@link #onBatchChannels(Supplier)}: its replies,
 * forwards and history message then go out on one broker client channel kept for the batch ({@link
 * ConfirmingChannel}, on the publisher connection, taken from a few kept open between batches),
 * which tracks its own confirms and returns; a channel the broker nacked a publish on is closed
 * once its answers are in, not kept. Per-message publishing through a template took a cached
 * channel per message and handed it to an executor thread to wait for its confirm (round 11);
 * through a template on a kept channel, Spring AMQP's conversion and confirm bookkeeping were still
 * a third of the publish path's samples (round 12). Dead-letters never use the batch's channel:
 * publishing to a dead-letter exchange that was deleted is a channel error, which would fail every
 * other pending confirm on that channel; they, and publishes outside a batch, go through a
 * template.
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

  private static final Logger log = LoggerFactory.getLogger(AmqpReplyPublisher.class);

  /**
   * How long a batch channel that is not used again ({@link ConfirmingChannel#reusable()}) waits
   * for the answers still pending on it (a batch's history message) before it is closed: longer
   * than any confirm or history timeout the gateway waits itself.
   */
  static final Duration RETIRE_LIMIT = Duration.ofMinutes(5);

  private final RabbitTemplate mandatory;
  private final RabbitTemplate direct;
  private final RabbitTemplate deadLetters;
  private final String deadLetterExchange;
  private final String deadLetterRoutingKey;
  private final ConnectionFactory publisherConnections;
  private final MessagePropertiesConverter properties = new DefaultMessagePropertiesConverter();

  /** Batch channels between batches; one is taken per batch, a new one opened when none is. */
  private final ConcurrentLinkedDeque<ConfirmingChannel> idle = new ConcurrentLinkedDeque<>();

  private final ThreadLocal<ConfirmingChannel> batchChannel = new ThreadLocal<>();
  private final AtomicInteger channelsOpened = new AtomicInteger();

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
    ConnectionFactory publishing = connectionFactory.getPublisherConnectionFactory();
    this.publisherConnections = publishing != null ? publishing : connectionFactory;
  }

  /**
   * Runs {@code batch} with this thread's replies, forwards and history messages on a channel kept
   * for it. Publishes may still be pending when {@code batch} returns (the history message is): the
   * channel goes back to the kept ones with them, and their futures complete when the broker
   * answers or the channel closes. When no channel can be had (the broker is gone), {@code batch}
   * runs without one and each publish reports its own failure, as outside a batch.
   *
   * @return what {@code batch} returned
   */
  public <T> T onBatchChannels(Supplier<T> batch) {
    ConfirmingChannel channel = take();
    if (channel == null) {
      return batch.get();
    }
    batchChannel.set(channel);
    try {
      return batch.get();
    } finally {
      batchChannel.remove();
      if (channel.reusable()) {
        idle.addFirst(channel);
      } else {
        channel.retire(RETIRE_LIMIT);
      }
    }
  }

  /** Batch channels opened so far (each stays open for many batches). */
  public int channelsOpened() {
    return channelsOpened.get();
  }

  private ConfirmingChannel take() {
    for (ConfirmingChannel kept = idle.pollFirst(); kept != null; kept = idle.pollFirst()) {
      if (kept.reusable()) {
        return kept;
      }
      kept.retire(RETIRE_LIMIT);
    }
    try {
      ConfirmingChannel opened =
          ConfirmingChannel.open(publisherConnections.createConnection().getDelegate());
      channelsOpened.incrementAndGet();
      return opened;
    } catch (IOException | RuntimeException e) {
      log.debug("no channel for the batch; each publish will report the failure", e);
      return null;
    }
  }

  /**
   * Publishes {@code reply} to {@code queue} through the default exchange. This and the other
   * publishes carry the current request's trace context ({@link RequestTrace#current()}) and time
   * its publish up to the broker's confirm.
   */
  public CompletableFuture<PublishOutcome> reply(String queue, Message reply) {
    TraceStep step = publishing("reply", queue, reply);
    return traced(step, toQueue(queue, !queue.startsWith(DIRECT_REPLY_TO_PREFIX), reply));
  }

  /** Publishes {@code message} to {@code queue} through the default exchange, mandatory. */
  public CompletableFuture<PublishOutcome> toQueue(String queue, Message message) {
    TraceStep step = publishing("forward", queue, message);
    return traced(step, toQueue(queue, true, message));
  }

  /** Publishes {@code deadLetter} to the dead-letter exchange. */
  public CompletableFuture<PublishOutcome> deadLetter(Message deadLetter) {
    TraceStep step = publishing("dead-letter", deadLetterExchange, deadLetter);
    return traced(step, publish(deadLetters, deadLetterExchange, deadLetterRoutingKey, deadLetter));
  }

  private static TraceStep publishing(String name, String destination, Message message) {
    return RequestTrace.current()
        .publish(name, destination, message.getMessageProperties(), AmqpTraceHeaders.SETTER);
  }

  /** Ends {@code step} when the broker confirmed, or fails it with the other outcomes. */
  private static CompletableFuture<PublishOutcome> traced(
      TraceStep step, CompletableFuture<PublishOutcome> outcome) {
    if (step == TraceStep.NONE) {
      return outcome;
    }
    return outcome.whenComplete((settled, error) -> {
      if (settled instanceof PublishOutcome.Confirmed) {
        step.end();
      } else {
        step.fail(error != null ? error.toString() : String.valueOf(settled));
      }
    });
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

  /** On this thread's batch channel if it has one, else through the template of its kind. */
  private CompletableFuture<PublishOutcome> toQueue(
      String queue, boolean isMandatory, Message message) {
    ConfirmingChannel channel = batchChannel.get();
    if (channel == null) {
      return publish(isMandatory ? mandatory : direct, "", queue, message);
    }
    return channel.publish(
        "",
        queue,
        isMandatory,
        properties.fromMessageProperties(
            message.getMessageProperties(), StandardCharsets.UTF_8.name()),
        message.getBody());
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
