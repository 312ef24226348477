package io.github.avgateway.jms;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

/**
 * One consumer's transacted session and what it sends with: an anonymous producer, the dead-letter
 * queue, the default reply queue (if any) and the history queue (unless history is off). Everything
 * sent here commits or rolls back with the requests received on the same session. Used by one
 * thread only.
 */
final class ConsumerSession {

  private final Session session;
  private final MessageProducer producer;
  private final Destination deadLetterQueue;
  private final Destination defaultReplyTo;
  private final Destination historyQueue;

  ConsumerSession(Session session, ConsumerSettings settings) throws JMSException {
    this.session = session;
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
    producer.send(destination, message);
  }

  void commit() throws JMSException {
    session.commit();
  }

  void rollback() throws JMSException {
    session.rollback();
  }
}
