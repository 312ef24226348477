package io.github.avgateway.jms.intake;

import jakarta.jms.Destination;
import java.util.HashSet;
import java.util.Set;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;

/**
 * Which queues a consumer's session may send to without the Artemis client asking the broker first.
 * Before a send to a destination object it has not sent to, the client asks the broker whether the
 * address and the queue exist (two blocking round trips), and a request's {@code JMSReplyTo} is a
 * new object every time: so, unmarked, every reply paid both. A queue destination is marked as
 * known, and sent without the client's checks, when
 *
 * <ul>
 *   <li>on the embedded broker: the broker has the queue now ({@link QueueLookup}, asked at every
 *       send, its answer final either way);
 *   <li>on an external broker, where the gateway cannot look: the client checked the same queue at
 *       an earlier send of the same transaction.
 * </ul>
 *
 * <p>Nothing is remembered past the transaction: a queue deleted since an earlier batch is not
 * known, and the client's checks then refuse the send ({@code InvalidDestinationException},
 * dead-lettered as unroutable) or create the queue where the broker allows, as they did for every
 * send. Within one transaction on an external broker the gateway relies on the check made at the
 * batch's first send to the queue, as it relies on any check until the broker takes the message.
 * Used by one thread only.
 */
final class KnownQueues {

  private final QueueLookup lookup;
  private final Set<String> checkedInTransaction = new HashSet<>();

  KnownQueues(QueueLookup lookup) {
    this.lookup = lookup;
  }

  /**
   * {@code destination}, marked as known when it is (see the class comment); call before a send.
   */
  Destination beforeSend(Destination destination) {
    if (destination instanceof ActiveMQDestination queue
        && queue.isQueue()
        && !queue.isCreated()
        && known(queue.getAddress())) {
      queue.setCreated(true);
    }
    return destination;
  }

  private boolean known(String queue) {
    return lookup.looksInTheBroker()
        ? lookup.anycastQueueExists(queue)
        : checkedInTransaction.contains(queue);
  }

  /**
   * Call after a send of {@code destination} returned. Where the gateway cannot look in the broker,
   * the client's checks found its queue: known for the rest of the transaction.
   */
  void sent(Destination destination) {
    if (!lookup.looksInTheBroker()
        && destination instanceof ActiveMQDestination queue
        && queue.isQueue()
        && queue.isCreated()) {
      checkedInTransaction.add(queue.getAddress());
    }
  }

  /** The transaction committed or rolled back (or failed to): nothing checked in it is known. */
  void transactionEnded() {
    checkedInTransaction.clear();
  }
}
