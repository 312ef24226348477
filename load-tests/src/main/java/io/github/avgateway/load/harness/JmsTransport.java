package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * A caller over JMS (Artemis CORE protocol): {@code BytesMessage} requests to the request queue
 * from a few producer threads (a persistent send waits for the broker's durable acknowledgement, so
 * one thread alone would cap the rate), {@code JMSReplyTo} a temporary queue, a fresh {@code
 * JMSCorrelationID}; the verdict is the reply's {@code avVerdict} property.
 */
final class JmsTransport implements Transport {

  /** Producer threads (each with its own session), from {@code -Dharness.jmsProducers}. */
  static final int PRODUCERS = Integer.getInteger("harness.jmsProducers", 32);

  private final Connection connection;
  private final TemporaryQueue replies;
  private final Map<String, CompletableFuture<Verdict>> pending = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final String prefix = UUID.randomUUID().toString().substring(0, 8) + "-";
  private final ExecutorService senders;
  private final ThreadLocal<Sender> sender;

  JmsTransport(String url, String queue, int producerThreads, boolean persistent)
      throws JMSException {
    ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(url);
    connection = factory.createConnection();
    Session replySession = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    replies = replySession.createTemporaryQueue();
    replySession.createConsumer(replies).setMessageListener(this::answered);
    connection.start();
    senders = Executors.newFixedThreadPool(producerThreads);
    sender = ThreadLocal.withInitial(() -> new Sender(queue, persistent));
  }

  @Override
  public CompletableFuture<Verdict> send(byte[] payload) {
    String id = prefix + sequence.incrementAndGet();
    CompletableFuture<Verdict> future = new CompletableFuture<>();
    pending.put(id, future);
    senders.execute(() -> {
      try {
        sender.get().send(id, payload);
      } catch (JMSException | RuntimeException e) {
        pending.remove(id);
        future.completeExceptionally(e);
      }
    });
    return future.whenComplete((v, e) -> pending.remove(id));
  }

  private void answered(Message reply) {
    try {
      CompletableFuture<Verdict> future = pending.remove(reply.getJMSCorrelationID());
      if (future != null) {
        future.complete(Verdict.valueOf(reply.getStringProperty("avVerdict")));
      }
    } catch (JMSException | RuntimeException e) {
      // an unreadable reply: its request times out and counts as failed
    }
  }

  @Override
  public void close() {
    senders.shutdownNow();
    try {
      connection.close();
    } catch (JMSException e) {
      // closing anyway
    }
  }

  /** One producer thread's session. */
  private final class Sender {
    private final Session session;
    private final MessageProducer producer;

    Sender(String queue, boolean persistent) {
      try {
        session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        producer = session.createProducer(session.createQueue(queue));
        producer.setDeliveryMode(
            persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
      } catch (JMSException e) {
        throw new IllegalStateException(e);
      }
    }

    void send(String id, byte[] payload) throws JMSException {
      BytesMessage message = session.createBytesMessage();
      message.writeBytes(payload);
      message.setJMSCorrelationID(id);
      message.setJMSReplyTo(replies);
      producer.send(message);
    }
  }
}
