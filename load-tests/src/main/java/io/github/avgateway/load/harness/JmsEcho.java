package io.github.avgateway.load.harness;

import io.github.avgateway.jms.config.JmsProperties;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.util.unit.DataSize;

/**
 * The Artemis ceiling: an embedded broker configured as the JMS gateway's (persistent journal, CORE
 * acceptor for outside callers, in-VM acceptor for the consumers in this JVM), and {@code
 * consumers} threads, each on its own in-VM connection and transacted session: wait for a first
 * request, take what else is already waiting up to {@code batchSize}, send one reply per request to
 * its {@code JMSReplyTo}, commit replies and consumption together.
 *
 * <p>With history ({@code withHistory}) each batch also sends, in its transaction, one history
 * message of its documents to {@link EchoReply#HISTORY_QUEUE}, as the gateway's batch does, and one
 * drainer takes that queue in transacted batches of up to 64 (waiting 200 ms for more), as the
 * gateway's indexer does once its store accepted them. Only scanning and the store are left out.
 */
final class JmsEcho implements AutoCloseable {

  private static final long DRAIN_WAIT_MILLIS = 200;

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
      boolean withHistory,
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
    // as the gateway's embedded broker: a floor of free disk, not 90 % of the disk used
    config.setMinDiskFree(DataSize.parse(JmsProperties.Embedded.DEFAULT_MIN_DISK_FREE).toBytes());
    config.addAcceptorConfiguration("in-vm", "vm://77");
    config.addAcceptorConfiguration("core", coreUrl + "?protocols=CORE");
    config.addQueueConfiguration(
        QueueConfiguration.of(queue).setAddress(queue).setRoutingType(RoutingType.ANYCAST));
    if (withHistory) {
      config.addQueueConfiguration(
          QueueConfiguration.of(EchoReply.HISTORY_QUEUE)
              .setAddress(EchoReply.HISTORY_QUEUE)
              .setRoutingType(RoutingType.ANYCAST));
    }
    broker.setConfiguration(config);
    broker.start();
    ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("vm://77");
    for (int i = 0; i < consumers; i++) {
      Connection connection = factory.createConnection();
      connections.add(connection);
      Session session = connection.createSession(Session.SESSION_TRANSACTED);
      MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
      MessageProducer producer = session.createProducer(null);
      Queue history = withHistory ? session.createQueue(EchoReply.HISTORY_QUEUE) : null;
      connection.start();
      workers.add(
          Thread.ofPlatform()
              .name("echo-" + i)
              .start(() -> work(session, consumer, producer, history, batchSize)));
    }
    if (withHistory) {
      Connection connection = factory.createConnection();
      connections.add(connection);
      Session session = connection.createSession(Session.SESSION_TRANSACTED);
      MessageConsumer drain = session.createConsumer(session.createQueue(EchoReply.HISTORY_QUEUE));
      connection.start();
      workers.add(
          Thread.ofPlatform().name("echo-history-drain").start(() -> drain(session, drain)));
    }
  }

  private void work(
      Session session, MessageConsumer consumer, MessageProducer out, Queue history, int size) {
    try {
      while (running) {
        Message first = consumer.receive(500);
        if (first == null) {
          continue;
        }
        reply(session, out, first);
        int taken = 1;
        for (; taken < size; taken++) {
          Message next = consumer.receiveNoWait();
          if (next == null) {
            break;
          }
          reply(session, out, next);
        }
        if (history != null) {
          BytesMessage documents = session.createBytesMessage();
          documents.writeBytes(EchoReply.history(taken));
          out.send(history, documents);
        }
        session.commit();
      }
    } catch (JMSException | RuntimeException e) {
      if (running) {
        System.err.println("echo worker failed: " + e);
      }
    }
  }

  /** The history indexer's broker side: transacted batches of up to 64. */
  private void drain(Session session, MessageConsumer drain) {
    try {
      while (running) {
        if (drain.receive(500) == null) {
          continue;
        }
        long fillUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_WAIT_MILLIS);
        for (int taken = 1; taken < EchoReply.MAX_BATCH; taken++) {
          long left = TimeUnit.NANOSECONDS.toMillis(fillUntil - System.nanoTime());
          if ((left > 0 ? drain.receive(left) : drain.receiveNoWait()) == null) {
            break;
          }
        }
        session.commit();
      }
    } catch (JMSException | RuntimeException e) {
      if (running) {
        System.err.println("echo history drainer failed: " + e);
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
