package io.github.avgateway.jms.intake;

/**
 * Whether a queue exists on the broker, answered without a round trip to it. On the embedded broker
 * it looks in the broker itself, and each answer is exact; on an external broker it cannot look
 * ({@link #REMOTE}), and the JMS client asks the broker before a send to a destination it has not
 * sent to (Artemis: an address query, then a queue query, each a blocking round trip).
 */
@FunctionalInterface
public interface QueueLookup {

  /** An external broker: the gateway cannot look, so it never says a queue exists. */
  QueueLookup REMOTE =
      new QueueLookup() {
        @Override
        public boolean anycastQueueExists(String queue) {
          return false;
        }

        @Override
        public boolean looksInTheBroker() {
          return false;
        }
      };

  /** True when an anycast queue named {@code queue} exists on the address of the same name. */
  boolean anycastQueueExists(String queue);

  /**
   * True when {@link #anycastQueueExists} looks in the broker itself, so that false means the queue
   * is not there; false when it cannot look and false means only "not known".
   */
  default boolean looksInTheBroker() {
    return true;
  }
}
