package io.github.avgateway.jms.history;

import io.github.avgateway.core.history.Backoff;
import io.github.avgateway.core.history.HistoryIndexer;
import io.github.avgateway.core.history.IndexOutcome;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The history indexer on JMS: one consumer of the history queue on its own connection and
 * transacted session. Each poll takes what is waiting, up to the batch size, hands all the
 * documents to the store at once ({@link HistoryIndexer}), dead-letters unreadable messages to the
 * history dead-letter queue with {@code avReason}, and commits. While the store refuses, the poll
 * is held (its transaction open, nothing redelivered) and tried again after a back-off. Competing
 * consumers: several gateways or indexer processes may drain one queue. Starts before the scanning
 * consumers and stops after them.
 */
public final class JmsHistoryIndexer implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(JmsHistoryIndexer.class);
  private static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);
  private static final Duration RECEIVE_TIMEOUT = Duration.ofMillis(500);

  private final ConnectionFactory factory;
  private final String queue;
  private final String deadLetterQueue;
  private final int batchSize;
  private final HistoryIndexer indexer;
  private final Backoff backoff;
  private volatile CountDownLatch stopping = new CountDownLatch(0);
  private volatile Thread thread;
  private Connection connection;
  private Session session;
  private MessageConsumer consumer;
  private MessageProducer producer;

  public JmsHistoryIndexer(
      ConnectionFactory factory,
      String queue,
      String deadLetterQueue,
      int batchSize,
      HistoryIndexer indexer,
      Backoff backoff) {
    this.factory = factory;
    this.queue = queue;
    this.deadLetterQueue = deadLetterQueue;
    this.batchSize = batchSize;
    this.indexer = indexer;
    this.backoff = backoff;
  }

  @Override
  public synchronized void start() {
    if (thread != null) {
      return;
    }
    stopping = new CountDownLatch(1);
    thread = Thread.ofPlatform().name("jms-history-indexer").start(this::run);
    log.info("history indexer consuming {} (polls of up to {} messages)", queue, batchSize);
  }

  @Override
  public synchronized void stop() {
    Thread running = thread;
    if (running == null) {
      return;
    }
    stopping.countDown();
    try {
      running.join(RECEIVE_TIMEOUT.plus(RECONNECT_DELAY).plusSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    disconnect();
    thread = null;
  }

  @Override
  public boolean isRunning() {
    return thread != null;
  }

  /** Before the scanning consumers start, after they stop. */
  @Override
  public int getPhase() {
    return Integer.MAX_VALUE - 2000;
  }

  private void run() {
    while (stopping.getCount() > 0) {
      try {
        if (session == null) {
          connect();
        }
        poll();
      } catch (JMSException | RuntimeException e) {
        if (stopping.getCount() > 0) {
          log.warn(
              "history indexer: broker failure, reconnecting in {}: {}",
              RECONNECT_DELAY,
              e.toString());
          disconnect();
          pause(RECONNECT_DELAY);
        }
      }
    }
    disconnect();
  }

  private void poll() throws JMSException {
    Message first = consumer.receive(RECEIVE_TIMEOUT.toMillis());
    if (first == null) {
      return;
    }
    List<Message> polled = new ArrayList<>(List.of(first));
    Message next;
    while (polled.size() < batchSize && (next = consumer.receiveNoWait()) != null) {
      polled.add(next);
    }
    List<byte[]> bodies = new ArrayList<>(polled.size());
    for (Message message : polled) {
      bodies.add(body(message));
    }
    // Artemis keeps delivery counts in memory: after a broker crash a request or history message
    // delivered before comes back unflagged, so every document replaces a stored copy
    List<IndexOutcome> outcomes =
        indexer.indexHeld(
            bodies.stream().map(HistoryIndexer.Received::again).toList(), backoff, this::pause);
    if (outcomes.stream().anyMatch(IndexOutcome.Refused.class::isInstance)) {
      session.rollback(); // stopping while the store refuses: the broker keeps the messages
      return;
    }
    for (int i = 0; i < outcomes.size(); i++) {
      if (outcomes.get(i) instanceof IndexOutcome.Rejected rejected) {
        deadLetter(bodies.get(i), rejected);
      }
    }
    session.commit();
  }

  /** The body of a history message; an empty one (unreadable) for any other message type. */
  private static byte[] body(Message message) throws JMSException {
    if (message instanceof BytesMessage bytes) {
      byte[] body = new byte[Math.toIntExact(bytes.getBodyLength())];
      bytes.readBytes(body);
      return body;
    }
    return new byte[0];
  }

  private void deadLetter(byte[] body, IndexOutcome.Rejected rejected) throws JMSException {
    log.warn(
        "history message dead-lettered to {}: {} ({})",
        deadLetterQueue,
        rejected.reason(),
        rejected.detail());
    BytesMessage letter = session.createBytesMessage();
    letter.writeBytes(body);
    letter.setStringProperty(WireNames.REASON, rejected.reason());
    letter.setStringProperty(WireNames.REASON_DETAIL, rejected.detail());
    producer.send(session.createQueue(deadLetterQueue), letter);
  }

  private void connect() throws JMSException {
    Connection opened = factory.createConnection();
    try {
      session = opened.createSession(Session.SESSION_TRANSACTED);
      consumer = session.createConsumer(session.createQueue(queue));
      producer = session.createProducer(null);
      producer.setDeliveryMode(DeliveryMode.PERSISTENT);
      opened.start();
      connection = opened;
    } catch (JMSException | RuntimeException e) {
      session = null;
      opened.close();
      throw e;
    }
  }

  private synchronized void disconnect() {
    session = null;
    consumer = null;
    producer = null;
    if (connection != null) {
      try {
        connection.close();
      } catch (JMSException e) {
        log.debug("history indexer: closing the connection failed", e);
      }
      connection = null;
    }
  }

  /** Waits {@code duration} unless stopping; false when stopping. */
  private boolean pause(Duration duration) {
    try {
      return !stopping.await(duration.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
