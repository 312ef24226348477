package io.github.avgateway.amqp.intake;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;

import io.github.avgateway.amqp.reply.AmqpReplyPublisher;
import java.util.function.Supplier;

/** Publisher doubles for the batch listener tests. */
final class BatchPublishers {

  private BatchPublishers() {}

  /**
   * A mock publisher that runs each batch handed to {@link AmqpReplyPublisher#onBatchChannels} at
   * once, as the real one does on its channels; its publishes are the test's to stub.
   */
  static AmqpReplyPublisher mockRunningBatches() {
    AmqpReplyPublisher publisher = mock(AmqpReplyPublisher.class);
    doAnswer(call -> call.<Supplier<?>>getArgument(0).get()).when(publisher).onBatchChannels(any());
    return publisher;
  }
}
