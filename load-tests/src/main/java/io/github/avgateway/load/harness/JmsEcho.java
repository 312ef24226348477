package io.github.avgateway.load.harness;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The Artemis ceiling: an embedded broker configured as the JMS gateway's (persistent journal, CORE
 * acceptor for outside callers, in-VM acceptor for the consumers in this JVM), and {@code
 * consumers} threads, each on its own in-VM connection and transacted session: wait for a first
 * request, take what else is already waiting up to {@code batchSize}, send one reply per request to
 * its {@code JMSReplyTo}, commit replies and consumption together.
 */
final class JmsEcho implements AutoCloseable {

  private final EmbeddedActiveMQ broker = new EmbeddedActiveMQ();
  private final List<Thread> workers = new ArrayList<>();
  private final List<Connection> connections = new ArrayList<>();
  private volatile boolean running = true;

  JmsEcho(
      String coreUrl,
      Path dataDir,
      boolean persistent,
      JournalType journal,
      String queue,
      int consumers,
      int batchSize)
      throws Exception {
    ConfigurationImpl config = new ConfigurationImpl();
    config.setName("perf-echo");
    config.setPersistenceEnabled(persistent);
    config.setSecurityEnabled(false);
    config.setJMXManagementEnabled(false);
    config.setJournalType(journal);
    config.setJournalDirectory(dataDir.resolve("journal").toString());
    config.setBindingsDirectory(dataDir.resolve("bindings").toString());
    config.setLargeMessagesDirectory(dataDir.resolve("large-messages").toString());
    config.setPagingDirectory(dataDir.resolve("paging").toString());
    config.addAcceptorConfiguration("in-vm", "vm://77");
    config.addAcceptorConfiguration("core", coreUrl + "?protocols=CORE");
    config.addQueueConfiguration(
        QueueConfiguration.of(queue).setAddress(queue).setRoutingType(RoutingType.ANYCAST));
    broker.setConfiguration(config);
    broker.start();
    ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("vm://77");
    for (int i = 0; i < consumers; i++) {
      Connection connection = factory.createConnection();
      connections.add(connection);
      Session session = connection.createSession(Session.SESSION_TRANSACTED);
      MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
      MessageProducer producer = session.createProducer(null);
      connection.start();
      workers.add(
          Thread.ofPlatform()
              .name("echo-" + i)
              .start(() -> work(session, consumer, producer, batchSize)));
    }
  }

  private void work(Session session, MessageConsumer consumer, MessageProducer out, int size) {
    try {
      while (running) {
        Message first = consumer.receive(500);
        if (first == null) {
          continue;
        }
        reply(session, out, first);
        for (int n = 1; n < size; n++) {
          Message next = consumer.receiveNoWait();
          if (next == null) {
            break;
          }
          reply(session, out, next);
        }
        session.commit();
      }
    } catch (JMSException | RuntimeException e) {
      if (running) {
        System.err.println("echo worker failed: " + e);
      }
    }
  }

  private static void reply(Session session, MessageProducer out, Message request)
      throws JMSException {
    BytesMessage reply = session.createBytesMessage();
    reply.writeBytes(EchoReply.BODY);
    reply.setJMSCorrelationID(request.getJMSCorrelationID());
    reply.setStringProperty("avVerdict", "CLEAN");
    out.send(request.getJMSReplyTo(), reply);
  }

  @Override
  public void close() throws Exception {
    running = false;
    for (Thread worker : workers) {
      worker.join(2000);
    }
    for (Connection connection : connections) {
      connection.close();
    }
    broker.stop();
  }
}
