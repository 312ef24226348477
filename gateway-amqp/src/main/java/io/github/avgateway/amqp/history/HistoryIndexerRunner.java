package io.github.avgateway.amqp.history;

import org.springframework.amqp.rabbit.listener.MessageListenerContainer;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the history indexer's consumer with the application, before the request consumers, and, on
 * stop, after them, ends its hold first (so that a batch held while the store refuses is requeued
 * at once, not after the container's shutdown timeout), then stops the consumer.
 */
public final class HistoryIndexerRunner implements SmartLifecycle {

  private final MessageListenerContainer container;
  private final AmqpHistoryIndexer indexer;
  private volatile boolean running;

  public HistoryIndexerRunner(MessageListenerContainer container, AmqpHistoryIndexer indexer) {
    this.container = container;
    this.indexer = indexer;
  }

  @Override
  public void start() {
    indexer.restart();
    container.start();
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    indexer.stop();
    container.stop();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Before the request consumers start, after they stop. */
  @Override
  public int getPhase() {
    return Integer.MAX_VALUE - 2000;
  }
}
