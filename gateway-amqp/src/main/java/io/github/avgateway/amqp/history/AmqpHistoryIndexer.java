package io.github.avgateway.amqp.history;

import com.rabbitmq.client.Channel;
import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import io.github.avgateway.amqp.reply.PublishOutcome;
import io.github.avgateway.core.history.Backoff;
import io.github.avgateway.core.history.HistoryIndexer;
import io.github.avgateway.core.history.IndexOutcome;
import io.github.avgateway.core.wire.WireNames;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.listener.api.ChannelAwareBatchMessageListener;

/**
 * The history indexer on RabbitMQ: takes consumer batches of history messages (manual ack) and
 * hands all their documents to the store at once ({@link HistoryIndexer}). A message is
 * acknowledged only after the store accepted its documents; an unreadable one is dead-lettered to
 * the history dead-letter queue with {@code avReason} / {@code avReasonDetail} (confirmed), then
 * acknowledged, never retried. While the store refuses (or its gate is down: Solr not accepting
 * writes, retention behind) the indexer holds its unacknowledged messages and tries them again with
 * back-off, rather than requeueing them; only a hold past {@code holdLimit} (below RabbitMQ's
 * {@code consumer_timeout}) or a stopping gateway requeues them. One instance per container, which
 * has one consumer.
 */
public final class AmqpHistoryIndexer implements ChannelAwareBatchMessageListener {

  private static final Logger log = LoggerFactory.getLogger(AmqpHistoryIndexer.class);
  private static final long MAX_PARK_NANOS = Duration.ofMillis(100).toNanos();

  private final HistoryIndexer indexer;
  private final AmqpReplyPublisher publisher;
  private final String deadLetterQueue;
  private final Backoff backoff;
  private final Duration holdLimit;
  private final Duration confirmTimeout;
  private final boolean flagsReliable;
  private volatile boolean stopping;

  public AmqpHistoryIndexer(
      HistoryIndexer indexer,
      AmqpReplyPublisher publisher,
      String deadLetterQueue,
      Backoff backoff,
      Duration holdLimit,
      Duration confirmTimeout,
      boolean flagsReliable) {
    this.indexer = indexer;
    this.publisher = publisher;
    this.deadLetterQueue = deadLetterQueue;
    this.backoff = backoff;
    this.holdLimit = holdLimit;
    this.confirmTimeout = confirmTimeout;
    this.flagsReliable = flagsReliable;
  }

  @Override
  public void onMessageBatch(List<Message> messages, Channel channel) {
    long deadline = System.nanoTime() + holdLimit.toNanos();
    List<IndexOutcome> outcomes =
        indexer.indexHeld(
            messages.stream().map(this::received).toList(), backoff, wait -> pause(wait, deadline));
    boolean[] done = new boolean[messages.size()];
    for (int i = 0; i < messages.size(); i++) {
      done[i] = settled(messages.get(i), outcomes.get(i));
    }
    try {
      acknowledge(messages, done, channel);
    } catch (IOException e) {
      throw new IllegalStateException("could not acknowledge; the broker will redeliver", e);
    }
  }

  /**
   * One multiple ack for the whole poll when every message is done (the usual case), else an ack or
   * a requeueing nack per message.
   */
  private static void acknowledge(List<Message> messages, boolean[] done, Channel channel)
      throws IOException {
    boolean all = true;
    for (boolean d : done) {
      all &= d;
    }
    if (all) {
      channel.basicAck(tag(messages.get(messages.size() - 1)), true);
      return;
    }
    for (int i = 0; i < messages.size(); i++) {
      if (done[i]) {
        channel.basicAck(tag(messages.get(i)), false);
      } else {
        channel.basicNack(tag(messages.get(i)), false, true);
      }
    }
  }

  /**
   * The body with RabbitMQ's redelivered flag, when the flags can be trusted; else marked
   * redelivered. A quorum queue (the history queue always, the request queues by default) counts
   * deliveries in its replicated log: a message delivered to a consumer that died, or before the
   * broker restarted, comes back flagged. With classic request queues a request's flag is not
   * trusted across a broker crash, so no document is recorded as new. An absent flag counts as
   * redelivered.
   */
  private HistoryIndexer.Received received(Message message) {
    boolean redelivered =
        !flagsReliable || !Boolean.FALSE.equals(message.getMessageProperties().getRedelivered());
    return new HistoryIndexer.Received(message.getBody(), redelivered);
  }

  private static long tag(Message message) {
    return message.getMessageProperties().getDeliveryTag();
  }

  /** Ends holds now: the process is stopping. */
  public void stop() {
    stopping = true;
  }

  /** Holds are possible again. */
  public void restart() {
    stopping = false;
  }

  /** Whether {@code message} may be acknowledged: indexed, or dead-lettered and confirmed. */
  private boolean settled(Message message, IndexOutcome outcome) {
    return switch (outcome) {
      case IndexOutcome.Indexed indexed -> true;
      case IndexOutcome.Rejected rejected -> deadLetter(message, rejected);
      case IndexOutcome.Refused refused -> false;
    };
  }

  /** True once the dead-letter was confirmed. */
  private boolean deadLetter(Message message, IndexOutcome.Rejected rejected) {
    MessageProperties props = message.getMessageProperties();
    props.setHeader(WireNames.REASON, rejected.reason());
    props.setHeader(WireNames.REASON_DETAIL, rejected.detail());
    long deadline = System.nanoTime() + confirmTimeout.toNanos();
    PublishOutcome outcome =
        PublishOutcome.await(publisher.toQueue(deadLetterQueue, message), deadline);
    if (outcome instanceof PublishOutcome.Confirmed) {
      log.warn(
          "history message dead-lettered to {}: {} ({})",
          deadLetterQueue,
          rejected.reason(),
          rejected.detail());
      return true;
    }
    log.warn("history message not dead-lettered ({}); it will be delivered again", outcome);
    return false;
  }

  /** Waits {@code wait} (bounded by the deadline); false when the hold must end instead. */
  private boolean pause(Duration wait, long deadline) {
    long until = System.nanoTime() + wait.toNanos();
    while (until - System.nanoTime() > 0) {
      if (stopping || Thread.currentThread().isInterrupted() || System.nanoTime() - deadline > 0) {
        return false;
      }
      LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, until - System.nanoTime()));
    }
    return !stopping && System.nanoTime() - deadline <= 0;
  }
}
