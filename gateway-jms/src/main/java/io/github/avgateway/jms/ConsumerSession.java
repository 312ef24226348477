package io.github.avgateway.jms;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.HashMap;
import java.util.Map;
import org.apache.activemq.artemis.api.jms.ActiveMQJMSClient;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;

/**
 * One consumer's transacted session and what it sends with: an anonymous producer, the dead-letter
 * queue, the default reply queue (if any), the history queue (unless history is off) and the
 * clean-pipe outlets it forwarded to. Everything sent here commits or rolls back with the requests
 * received on the same session. Used by one thread only.
 *
 * <p>A destination's existence is looked up in the broker where the gateway holds it ({@link
 * QueueLookup}) before each send: a request's {@code JMSReplyTo} is a new destination object every
 * time, and for each one the Artemis client otherwise asks the broker twice before sending (an
 * address query and a queue query, both blocking round trips), which on the embedded broker was the
 * larger part of a 1 KiB request's cost. A destination the lookup does not find is sent as before,
 * so the client's checks still refuse a queue that does not exist ({@code
 * InvalidDestinationException}) or create it where the broker allows.
 */
final class ConsumerSession {

  private final Session session;
  private final MessageProducer producer;
  private final Destination deadLetterQueue;
  private final Destination defaultReplyTo;
  private final Destination historyQueue;
  private final Map<String, Destination> queues = new HashMap<>();
  private final QueueLookup lookup;

  ConsumerSession(Session session, ConsumerSettings settings, QueueLookup lookup)
      throws JMSException {
    this.session = session;
    this.lookup = lookup;
    this.producer = session.createProducer(null);
    this.producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    this.deadLetterQueue = session.createQueue(settings.deadLetterQueue());
    this.defaultReplyTo = queueOrNull(settings.defaultReplyQueue());
    this.historyQueue = queueOrNull(settings.historyQueue());
  }

  private Destination queueOrNull(String name) throws JMSException {
    return name == null ? null : session.createQueue(name);
  }

  Session session() {
    return session;
  }

  Destination requestQueue(String name) throws JMSException {
    return session.createQueue(name);
  }

  /**
   * The queue {@code name} (a clean-pipe's outlet), made once per session without asking the
   * broker: {@code Session.createQueue} of Artemis fails with a bare {@code JMSException} for a
   * queue that does not exist, while a send to it fails with {@code InvalidDestinationException},
   * which the gateway dead-letters as unroutable.
   */
  Destination queue(String name) {
    return queues.computeIfAbsent(name, ActiveMQJMSClient::createQueue);
  }

  Destination deadLetterQueue() {
    return deadLetterQueue;
  }

  /** The configured default reply queue, or null. */
  Destination defaultReplyTo() {
    return defaultReplyTo;
  }

  /** The history queue, or null when history is off. */
  Destination historyQueue() {
    return historyQueue;
  }

  void send(Destination destination, Message message) throws JMSException {
    producer.send(known(destination, lookup), message);
  }

  /**
   * Sends {@code message} persistent with {@code priority} and {@code timeToLive} (0: never
   * expires), as a clean-pipe forward keeps the producer's.
   */
  void send(Destination destination, Message message, int priority, long timeToLive)
      throws JMSException {
    producer.send(
        known(destination, lookup), message, DeliveryMode.PERSISTENT, priority, timeToLive);
  }

  /**
   * {@code destination}, marked as known to the broker when {@code lookup} finds its queue now, so
   * that the client sends without asking the broker first. Checked at every send, never remembered:
   * a queue deleted since an earlier reply is not found, and the client's own checks then refuse
   * the send.
   */
  static Destination known(Destination destination, QueueLookup lookup) {
    if (destination instanceof ActiveMQDestination queue
        && queue.isQueue()
        && !queue.isCreated()
        && lookup.anycastQueueExists(queue.getAddress())) {
      queue.setCreated(true);
    }
    return destination;
  }

  void commit() throws JMSException {
    session.commit();
  }

  void rollback() throws JMSException {
    session.rollback();
  }
}
