package io.github.avgateway.jms;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

/**
 * One consumer's transacted session and what it sends with: an anonymous producer, the dead-letter
 * queue and the default reply queue (if any). Everything sent here commits or rolls back with the
 * requests received on the same session. Used by one thread only.
 */
final class ConsumerSession {

  private final Session session;
  private final MessageProducer producer;
  private final Destination deadLetterQueue;
  private final Destination defaultReplyTo;

  ConsumerSession(Session session, String deadLetterQueue, String defaultReplyQueue)
      throws JMSException {
    this.session = session;
    this.producer = session.createProducer(null);
    this.producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    this.deadLetterQueue = session.createQueue(deadLetterQueue);
    this.defaultReplyTo = defaultReplyQueue == null ? null : session.createQueue(defaultReplyQueue);
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
