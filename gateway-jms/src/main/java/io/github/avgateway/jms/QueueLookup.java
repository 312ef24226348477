package io.github.avgateway.jms;

/**
 * Whether a queue exists on the broker, answered without a round trip to it. On the embedded broker
 * it looks in the broker itself; on an external broker it cannot know and says no, and the JMS
 * client asks the broker before each send to a destination it has not sent to (Artemis: an address
 * query, then a queue query, each a blocking round trip).
 */
@FunctionalInterface
public interface QueueLookup {

  /** An external broker: every send to a new destination asks the broker. */
  QueueLookup REMOTE = queue -> false;

  /** True when an anycast queue named {@code queue} exists on the address of the same name. */
  boolean anycastQueueExists(String queue);
}
