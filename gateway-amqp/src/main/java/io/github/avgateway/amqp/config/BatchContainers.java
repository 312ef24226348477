package io.github.avgateway.amqp.config;

import java.time.Duration;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.amqp.rabbit.listener.api.ChannelAwareBatchMessageListener;

/**
 * The listener containers of the gateway (request consumers and history indexer): consumer batches,
 * manual acknowledgement, reconnecting every {@code recovery} after the broker was lost, tolerant
 * of a queue that does not exist yet, and started by the gateway's own lifecycle beans, not by
 * Spring.
 */
final class BatchContainers {

  private BatchContainers() {}

  /**
   * @param batchWait how long one batch may take to fill, in all and for each next message
   */
  static SimpleMessageListenerContainer create(
      ConnectionFactory connectionFactory,
      String queue,
      int consumers,
      int prefetch,
      int batchSize,
      Duration batchWait,
      Duration recovery,
      ChannelAwareBatchMessageListener listener) {
    SimpleMessageListenerContainer container =
        new SimpleMessageListenerContainer(connectionFactory);
    container.setQueueNames(queue);
    container.setConcurrentConsumers(consumers);
    container.setPrefetchCount(prefetch);
    container.setConsumerBatchEnabled(true);
    container.setBatchSize(batchSize);
    long batchWaitMillis = Math.max(1, batchWait.toMillis());
    container.setReceiveTimeout(batchWaitMillis);
    // Bounds the whole fill, not only each wait: with the per-message wait alone, messages arriving
    // just under batch-wait apart (half load) kept a batch filling to its size, 16 waits long.
    container.setBatchReceiveTimeout(batchWaitMillis);
    container.setAcknowledgeMode(AcknowledgeMode.MANUAL);
    container.setRecoveryInterval(recovery.toMillis());
    container.setMissingQueuesFatal(false);
    container.setForceStop(true);
    container.setAutoStartup(false);
    // The gateway's own meters time every scan; Spring's timer per batch built its queue-name tag
    // for each batch (2 % of a consumer's samples at 1 KiB) and is not one of the documented
    // meters.
    container.setMicrometerEnabled(false);
    container.setMessageListener(listener);
    return container;
  }
}
