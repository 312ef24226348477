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

/**
 * One consumer's transacted session and what it sends with: an anonymous producer, the dead-letter
 * queue, the default reply queue (if any), the history queue (unless history is off) and the
 * clean-pipe outlets it forwarded to. Everything sent here commits or rolls back with the requests
 * received on the same session. Used by one thread only. Every send passes {@link KnownQueues},
 * which spares the Artemis client's two queries to the broker before a reply where it can.
 */
final class ConsumerSession {

  private final Session session;
  private final MessageProducer producer;
  private final Destination deadLetterQueue;
  private final Destination defaultReplyTo;
  private final Destination historyQueue;
  private final Map<String, Destination> queues = new HashMap<>();
  private final KnownQueues known;

  ConsumerSession(Session session, ConsumerSettings settings, QueueLookup lookup)
      throws JMSException {
    this.session = session;
    this.known = new KnownQueues(lookup);
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
    Destination target = known.beforeSend(destination);
    producer.send(target, message);
    known.sent(target);
  }

  /**
   * Sends {@code message} persistent with {@code priority} and {@code timeToLive} (0: never
   * expires), as a clean-pipe forward keeps the producer's.
   */
  void send(Destination destination, Message message, int priority, long timeToLive)
      throws JMSException {
    Destination target = known.beforeSend(destination);
    producer.send(target, message, DeliveryMode.PERSISTENT, priority, timeToLive);
    known.sent(target);
  }

  void commit() throws JMSException {
    try {
      session.commit();
    } finally {
      known.transactionEnded();
    }
  }

  void rollback() throws JMSException {
    try {
      session.rollback();
    } finally {
      known.transactionEnded();
    }
  }
}
