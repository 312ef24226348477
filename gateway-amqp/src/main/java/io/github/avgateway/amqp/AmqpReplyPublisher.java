package io.github.avgateway.amqp;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Publishes replies and dead-letters with {@code mandatory} set and a correlated publisher confirm
 * each. The returned future completes with the broker's answer; it never completes exceptionally. A
 * message the broker could not route is reported as {@link PublishOutcome.Returned} (RabbitMQ sends
 * the return before the confirm, and Spring AMQP attaches it to the confirm's correlation).
 */
public final class AmqpReplyPublisher {

  private final RabbitTemplate template;
  private final String deadLetterExchange;
  private final String deadLetterRoutingKey;

  /**
   * @param template a template on a connection factory with correlated confirms and returns, and
   *     {@code mandatory} set
   */
  public AmqpReplyPublisher(
      RabbitTemplate template, String deadLetterExchange, String deadLetterRoutingKey) {
    this.template = template;
    this.deadLetterExchange = deadLetterExchange;
    this.deadLetterRoutingKey = deadLetterRoutingKey;
  }

  /** Publishes {@code reply} to {@code queue} through the default exchange. */
  public CompletableFuture<PublishOutcome> reply(String queue, Message reply) {
    return publish("", queue, reply);
  }

  /** Publishes {@code deadLetter} to the dead-letter exchange. */
  public CompletableFuture<PublishOutcome> deadLetter(Message deadLetter) {
    return publish(deadLetterExchange, deadLetterRoutingKey, deadLetter);
  }

  private CompletableFuture<PublishOutcome> publish(
      String exchange, String routingKey, Message message) {
    CorrelationData correlation = new CorrelationData(UUID.randomUUID().toString());
    try {
      template.send(exchange, routingKey, message, correlation);
    } catch (AmqpException e) {
      return CompletableFuture.completedFuture(
          new PublishOutcome.Failed("publish failed: " + e.getMessage()));
    }
    return correlation
        .getFuture()
        .handle((confirm, error) -> {
          if (error != null) {
            return new PublishOutcome.Failed("no confirm: " + error.getMessage());
          }
          ReturnedMessage returned = correlation.getReturned();
          if (returned != null) {
            return new PublishOutcome.Returned(returned.getReplyCode(), returned.getReplyText());
          }
          return confirm.ack()
              ? new PublishOutcome.Confirmed()
              : new PublishOutcome.Failed("nacked by the broker: " + confirm.reason());
        });
  }
}
