package io.github.avgateway.amqp;

import com.rabbitmq.client.Channel;
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
  private volatile boolean stopping;

  public AmqpHistoryIndexer(
      HistoryIndexer indexer,
      AmqpReplyPublisher publisher,
      String deadLetterQueue,
      Backoff backoff,
      Duration holdLimit,
      Duration confirmTimeout) {
    this.indexer = indexer;
    this.publisher = publisher;
    this.deadLetterQueue = deadLetterQueue;
    this.backoff = backoff;
    this.holdLimit = holdLimit;
    this.confirmTimeout = confirmTimeout;
  }

  @Override
  public void onMessageBatch(List<Message> messages, Channel channel) {
    long deadline = System.nanoTime() + holdLimit.toNanos();
    List<IndexOutcome> outcomes =
        indexer.indexHeld(
            messages.stream().map(Message::getBody).toList(),
            backoff,
            wait -> pause(wait, deadline));
    try {
      for (int i = 0; i < messages.size(); i++) {
        settle(messages.get(i), outcomes.get(i), channel);
      }
    } catch (IOException e) {
      throw new IllegalStateException("could not acknowledge; the broker will redeliver", e);
    }
  }

  /** Ends holds now: the process is stopping. */
  public void stop() {
    stopping = true;
  }

  /** Holds are possible again. */
  public void restart() {
    stopping = false;
  }

  private void settle(Message message, IndexOutcome outcome, Channel channel) throws IOException {
    long tag = message.getMessageProperties().getDeliveryTag();
    boolean done =
        switch (outcome) {
          case IndexOutcome.Indexed indexed -> true;
          case IndexOutcome.Rejected rejected -> deadLetter(message, rejected);
          case IndexOutcome.Refused refused -> false;
        };
    if (done) {
      channel.basicAck(tag, false);
    } else {
      channel.basicNack(tag, false, true);
    }
  }

  /** True once the dead-letter was confirmed. */
  private boolean deadLetter(Message message, IndexOutcome.Rejected rejected) {
    MessageProperties props = message.getMessageProperties();
    props.setHeader(WireNames.REASON, rejected.reason());
    props.setHeader(WireNames.REASON_DETAIL, rejected.detail());
    long deadline = System.nanoTime() + confirmTimeout.toNanos();
    PublishOutcome outcome = BatchItem.await(publisher.toQueue(deadLetterQueue, message), deadline);
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
