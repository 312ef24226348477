package io.github.avgateway.amqp;

import io.github.avgateway.amqp.config.AmqpGatewayProperties;
import io.github.avgateway.amqp.config.AmqpGatewayProperties.QueueType;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;

/**
 * The broker objects the gateway owns: a durable request queue that dead-letters to a direct
 * exchange, and a durable dead-letter queue bound to it. Both the broker (delivery limit, a
 * rejected message) and the gateway (its own dead-letters, with {@code avReason}) route with the
 * request queue's name as routing key, so one binding catches both.
 */
public final class AmqpTopology {

  private final AmqpGatewayProperties properties;

  public AmqpTopology(AmqpGatewayProperties properties) {
    this.properties = properties;
  }

  /** The routing key of every dead-letter: the request queue's name. */
  public String deadLetterRoutingKey() {
    return properties.requestQueue();
  }

  /** The request queue, dead-lettering to the dead-letter exchange. */
  public Queue requestQueue() {
    QueueBuilder builder =
        QueueBuilder.durable(properties.requestQueue())
            .deadLetterExchange(properties.deadLetterExchange())
            .deadLetterRoutingKey(deadLetterRoutingKey());
    if (properties.queueType() == QueueType.QUORUM) {
      builder.quorum().deliveryLimit(properties.deliveryLimit());
    }
    return builder.build();
  }

  /** The dead-letter queue, of the same type as the request queue. */
  public Queue deadLetterQueue() {
    QueueBuilder builder = QueueBuilder.durable(properties.deadLetterQueue());
    if (properties.queueType() == QueueType.QUORUM) {
      builder.quorum();
    }
    return builder.build();
  }

  public DirectExchange deadLetterExchange() {
    return new DirectExchange(properties.deadLetterExchange(), true, false);
  }

  public Binding deadLetterBinding() {
    return BindingBuilder.bind(deadLetterQueue())
        .to(deadLetterExchange())
        .with(deadLetterRoutingKey());
  }

  /** Everything above, for a {@code RabbitAdmin} to declare on every (re)connection. */
  public Declarables declarables() {
    return new Declarables(
        requestQueue(), deadLetterExchange(), deadLetterQueue(), deadLetterBinding());
  }
}
