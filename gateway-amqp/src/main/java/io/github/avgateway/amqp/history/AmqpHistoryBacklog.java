package io.github.avgateway.amqp.history;

import io.github.avgateway.core.history.HistoryBacklog;
import java.time.Duration;
import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.QueueInformation;

/**
 * How many history messages wait on the history queue, as RabbitMQ reports it (a passive declare):
 * the ready messages, not those an indexer holds unacknowledged (at most its prefetch), which is
 * also what the queue's {@code x-max-length} counts. Asks the broker at most once per {@code
 * refresh}; -1 while it cannot be asked. Thread-safe.
 */
public final class AmqpHistoryBacklog implements HistoryBacklog {

  private final AmqpAdmin admin;
  private final String queue;
  private final long refreshNanos;
  private long depth = -1;
  private long readAt;
  private boolean read;

  public AmqpHistoryBacklog(AmqpAdmin admin, String queue, Duration refresh) {
    this.admin = admin;
    this.queue = queue;
    this.refreshNanos = refresh.toNanos();
  }

  @Override
  public synchronized long messages() {
    long now = System.nanoTime();
    if (read && now - readAt < refreshNanos) {
      return depth;
    }
    try {
      QueueInformation info = admin.getQueueInfo(queue);
      depth = info == null ? -1 : info.getMessageCount();
    } catch (AmqpException e) {
      depth = -1;
    }
    readAt = now;
    read = true;
    return depth;
  }
}
