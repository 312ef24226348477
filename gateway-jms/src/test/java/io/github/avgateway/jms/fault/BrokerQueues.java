package io.github.avgateway.jms.fault;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueRequestor;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.activemq.artemis.api.jms.ActiveMQJMSClient;
import org.apache.activemq.artemis.api.jms.management.JMSManagementHelper;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * What the fault broker itself says of a queue, asked through Artemis' management address on a
 * connection of its own (no proxy): how many messages it holds, how many of them are delivered to a
 * consumer and not yet acknowledged, and how many were added and acknowledged since the broker
 * started. A scenario uses it to show where a fault struck (e.g. a consumer held unacknowledged
 * messages when it was killed).
 */
final class BrokerQueues implements AutoCloseable {

  private static final String MANAGEMENT = "activemq.management";

  private final QueueConnection connection;
  private final QueueSession session;
  private final QueueRequestor requestor;

  BrokerQueues(String brokerUrl) throws JMSException {
    connection = new ActiveMQConnectionFactory(brokerUrl).createQueueConnection();
    session = connection.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
    requestor = new QueueRequestor(session, ActiveMQJMSClient.createQueue(MANAGEMENT));
    connection.start();
  }

  /** Messages in {@code queue}, those delivered and not yet acknowledged included. */
  long messageCount(String queue) {
    return attribute(queue, "messageCount");
  }

  /** Consumers of {@code queue} now. */
  long consumerCount(String queue) {
    return attribute(queue, "consumerCount");
  }

  /** Messages of {@code queue} delivered to consumers and not yet acknowledged. */
  long deliveringCount(String queue) {
    return attribute(queue, "deliveringCount");
  }

  /** Messages added to {@code queue} since the broker started. */
  long messagesAdded(String queue) {
    return attribute(queue, "messagesAdded");
  }

  /** Messages of {@code queue} acknowledged (consumed for good) since the broker started. */
  long messagesAcknowledged(String queue) {
    return attribute(queue, "messagesAcknowledged");
  }

  private synchronized long attribute(String queue, String name) {
    try {
      Message request = session.createMessage();
      JMSManagementHelper.putAttribute(request, ResourceNames.QUEUE + queue, name);
      Message reply = requestor.request(request);
      return ((Number) JMSManagementHelper.getResult(reply)).longValue();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read " + name + " of " + queue, e);
    }
  }

  @Override
  public void close() throws JMSException {
    connection.close();
  }
}
