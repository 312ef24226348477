package io.github.avgateway.amqp.config;

import io.github.avgateway.amqp.config.AmqpGatewayProperties.QueueType;
import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipe.PipeOutlet;
import java.util.ArrayList;
import java.util.List;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Declarable;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;

/**
 * The broker objects the gateway owns: a durable request queue that dead-letters to a direct
 * exchange, and a durable dead-letter queue bound to it. Both the broker (delivery limit, a
 * rejected message) and the gateway (its own dead-letters, with {@code avReason}) route with the
 * request queue's name as routing key, so one binding catches both. With history on, also the
 * history stream (docs/history-stream.md): a durable quorum queue bounded by {@code x-max-length} /
 * {@code x-max-length-bytes} with {@code x-overflow=reject-publish} (a full backlog nacks the
 * publish, nothing is dropped) and no delivery limit (a message the indexer holds while Solr is
 * down and then requeues is never dead-lettered for it), and the durable queue of unreadable
 * history messages. For each clean-pipe: its inbox, declared like the request queue, and its three
 * outlets (clean, quarantine, rejected), durable queues of the request queue's type.
 */
public final class AmqpTopology {

  private final AmqpGatewayProperties properties;
  private final HistoryStreamProperties history;

  public AmqpTopology(AmqpGatewayProperties properties, HistoryStreamProperties history) {
    this.properties = properties;
    this.history = history;
  }

  /** The routing key of every dead-letter: the request queue's name. */
  public String deadLetterRoutingKey() {
    return properties.requestQueue();
  }

  /** The request queue, dead-lettering to the dead-letter exchange. */
  public Queue requestQueue() {
    return intakeQueue(properties.requestQueue());
  }

  /**
   * A pipe's inbox: like the request queue (same dead-letter exchange and routing key, so that the
   * broker's dead-letters of pipe messages reach the same dead-letter queue, same delivery limit).
   */
  public Queue pipeInbox(Pipe pipe) {
    return intakeQueue(pipe.inbox());
  }

  /** A pipe's clean, quarantine or rejected queue: durable, of the request queue's type. */
  public Queue pipeOutlet(Pipe pipe, PipeOutlet outlet) {
    QueueBuilder builder = QueueBuilder.durable(pipe.destination(outlet));
    if (properties.queueType() == QueueType.QUORUM) {
      builder.quorum();
    }
    return builder.build();
  }

  private Queue intakeQueue(String name) {
    QueueBuilder builder =
        QueueBuilder.durable(name)
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

  /** The history stream: bounded, refusing publishes when full, never dropping. */
  public Queue historyQueue() {
    return QueueBuilder.durable(history.queue())
        .quorum()
        .withArgument("x-max-length", history.maxMessages())
        .withArgument("x-max-length-bytes", history.maxBytes().toBytes())
        .overflow(QueueBuilder.Overflow.rejectPublish)
        .build();
  }

  /** Unreadable history messages, each with {@code avReason}. */
  public Queue historyDeadLetterQueue() {
    return QueueBuilder.durable(history.deadLetterQueue()).quorum().build();
  }

  /** Everything above, for a {@code RabbitAdmin} to declare on every (re)connection. */
  public Declarables declarables() {
    List<Declarable> all =
        new ArrayList<>(
            List.of(requestQueue(), deadLetterExchange(), deadLetterQueue(), deadLetterBinding()));
    for (Pipe pipe : properties.pipes()) {
      all.add(pipeInbox(pipe));
      for (PipeOutlet outlet : PipeOutlet.values()) {
        all.add(pipeOutlet(pipe, outlet));
      }
    }
    if (history.enabled()) {
      all.add(historyQueue());
      all.add(historyDeadLetterQueue());
    }
    return new Declarables(all);
  }
}
