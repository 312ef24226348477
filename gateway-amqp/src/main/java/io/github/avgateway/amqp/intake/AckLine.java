package io.github.avgateway.amqp.intake;

import com.rabbitmq.client.Channel;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batches of one consumer channel that were handled but not yet acknowledged, in delivery
 * order. A batch joins the line once its replies are confirmed and its history message is
 * published; it is acknowledged once that history message is settled <em>and</em> every batch
 * before it was acknowledged, so a multiple ack never covers an earlier batch that is still
 * waiting. The consumer meanwhile takes its next batch (prefetch bounds how many wait). Settlements
 * arrive on the broker client's threads; acknowledgements are sent one at a time, under the line's
 * lock.
 */
final class AckLine {

  private static final Logger log = LoggerFactory.getLogger(AckLine.class);

  private static final class Waiting {
    final List<BatchItem> items;
    boolean settled;

    Waiting(List<BatchItem> items) {
      this.items = items;
    }
  }

  private final Channel channel;
  private final BiConsumer<Channel, List<BatchItem>> acknowledge;
  private final ArrayDeque<Waiting> line = new ArrayDeque<>();

  /**
   * @param acknowledge acks or requeues one settled batch on the channel; runs under the line's
   *     lock
   */
  AckLine(Channel channel, BiConsumer<Channel, List<BatchItem>> acknowledge) {
    this.channel = channel;
    this.acknowledge = acknowledge;
  }

  Channel channel() {
    return channel;
  }

  /** Puts {@code items} at the end of the line; they are acknowledged once {@code settled} is. */
  void join(List<BatchItem> items, CompletableFuture<?> settled) {
    Waiting batch = new Waiting(items);
    synchronized (this) {
      line.addLast(batch);
    }
    settled.whenComplete((ignored, error) -> settled(batch));
  }

  private synchronized void settled(Waiting batch) {
    batch.settled = true;
    while (!line.isEmpty() && line.peekFirst().settled) {
      List<BatchItem> items = line.pollFirst().items;
      try {
        acknowledge.accept(channel, items);
      } catch (RuntimeException e) {
        // The channel is gone: the broker returns its unacknowledged requests to the queue.
        log.warn("could not acknowledge a batch of {}; the broker will redeliver", items.size(), e);
      }
    }
    if (line.isEmpty()) {
      notifyAll();
    }
  }

  /** True when no batch waits, or the channel is closed (its batches went back to the queue). */
  synchronized boolean empty() {
    return line.isEmpty() || !channel.isOpen();
  }

  /** Waits until {@link #empty()}, for {@code nanos} at most; true when it is. */
  synchronized boolean awaitEmpty(long nanos) {
    long deadline = System.nanoTime() + nanos;
    try {
      while (!empty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        // The channel closing does not notify: look again at least every 50 ms.
        long millis = Math.max(1, Math.min(50, left / 1_000_000));
        wait(millis);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return empty();
    }
  }
}
