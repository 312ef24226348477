package io.github.avgateway.jms.support;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * A caller on plain JMS that sets every request property itself (file name, client id) and waits
 * for the answer on its own temporary queue, one request at a time.
 */
public final class RawJmsClient implements AutoCloseable {

  private final Connection connection;
  private final Session session;
  private final MessageProducer producer;
  private final TemporaryQueue replies;
  private final MessageConsumer consumer;

  public RawJmsClient(ActiveMQConnectionFactory factory, String requestQueue) throws JMSException {
    connection = factory.createConnection();
    session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    producer = session.createProducer(session.createQueue(requestQueue));
    replies = session.createTemporaryQueue();
    consumer = session.createConsumer(replies);
    connection.start();
  }

  /** Sends {@code body} as a BytesMessage with {@code avFilename} and {@code avClientId}. */
  public Message scan(byte[] body, String filename, String clientId, long timeoutMillis)
      throws JMSException {
    BytesMessage message = session.createBytesMessage();
    message.writeBytes(body);
    return send(message, filename, clientId, timeoutMillis);
  }

  /** Sends {@code message} (any type) with the properties set and returns the answer, or null. */
  public Message send(Message message, String filename, String clientId, long timeoutMillis)
      throws JMSException {
    message.setStringProperty("avFilename", filename);
    message.setStringProperty("avClientId", clientId);
    message.setJMSReplyTo(replies);
    producer.send(message);
    return consumer.receive(timeoutMillis);
  }

  public Session session() {
    return session;
  }

  @Override
  public void close() throws JMSException {
    connection.close();
  }
}
