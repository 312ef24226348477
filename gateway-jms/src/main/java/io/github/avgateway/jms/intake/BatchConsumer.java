package io.github.avgateway.jms.intake;

import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.transport.IntakeHold;
import io.github.avgateway.jms.history.HistoryRoom;
import io.github.avgateway.jms.history.JmsHistoryBuffer;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer of the request queue (or of a clean-pipe's inbox), on its own connection and
 * transacted session, run by one thread. It takes a batch of what is already waiting (never waiting
 * to fill it), and commits the batch's replies, dead-letters and consumption together, after the
 * history message holding its documents was committed (with the history buffer off, in the same
 * commit; see {@link Batch}). While the intake gate is down between batches it closes its message
 * consumer, so requests stay in the broker, and opens it again when the gate is up; a batch already
 * running when the gate closes is held open instead (see {@link IntakeHold}).
 */
final class BatchConsumer implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(BatchConsumer.class);
  private static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);

  private final String name;
  private final ConnectionFactory factory;
  private final ConsumerSettings settings;
  private final String queue;
  private final ItemProcessor processor;
  private final IntakeGate gate;
  private final HistoryBacklogGate backlog;
  private final HistoryRoom room;
  private final QueueLookup lookup;
  private final JmsHistoryBuffer shared;
  private final CountDownLatch stopping = new CountDownLatch(1);
  private volatile boolean running = true;
  private Connection connection;
  private ConsumerSession session;
  private MessageConsumer consumer;

  BatchConsumer(
      String name,
      ConnectionFactory factory,
      ConsumerSettings settings,
      String queue,
      ItemProcessor processor,
      IntakeGate gate,
      HistoryBacklogGate backlog,
      HistoryRoom room,
      QueueLookup lookup,
      JmsHistoryBuffer shared) {
    this.name = name;
    this.factory = factory;
    this.settings = settings;
    this.queue = queue;
    this.processor = processor;
    this.gate = gate;
    this.backlog = backlog;
    this.room = room;
    this.lookup = lookup;
    this.shared = shared;
  }

  /** Opens the connection and session; called before the thread starts, to fail fast. */
  void connect() throws JMSException {
    Connection opened = factory.createConnection();
    try {
      Session transacted = opened.createSession(Session.SESSION_TRANSACTED);
      session = new ConsumerSession(transacted, settings, lookup);
      opened.start();
      connection = opened;
    } catch (JMSException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  @Override
  public void run() {
    while (running) {
      try {
        if (connection == null) {
          connect();
        }
        if (gate.intake() instanceof Availability.Down) {
          closeConsumer();
          pause(settings.pausePollInterval());
          continue;
        }
        Message first = consumer().receive(settings.receiveTimeout().toMillis());
        if (first != null) {
          IntakeHold hold =
              new JmsIntakeHold(
                  gate, settings.pausePollInterval(), settings.pauseHoldTime(), stopping);
          new Batch(session, consumer, queue, processor, settings, hold, backlog, room, shared)
              .run(first);
        }
      } catch (JMSException | RuntimeException e) {
        if (session != null) {
          session.traces().rolledBack("broker failure: " + e);
        }
        if (running) {
          log.warn(
              "{}: broker failure, reconnecting in {}: {}", name, RECONNECT_DELAY, e.toString());
          disconnect();
          pause(RECONNECT_DELAY);
        }
      }
    }
    disconnect();
  }

  /** Asks the loop to end after the current batch; returns at once. */
  void stop() {
    running = false;
    stopping.countDown();
  }

  /** Ends the connection even in the middle of a batch (which the broker then redelivers). */
  void abort() {
    disconnect();
  }

  private MessageConsumer consumer() throws JMSException {
    if (consumer == null) {
      consumer = session.session().createConsumer(session.requestQueue(queue));
    }
    return consumer;
  }

  private void closeConsumer() {
    if (consumer != null) {
      try {
        consumer.close();
      } catch (JMSException e) {
        log.debug("{}: closing the consumer failed", name, e);
      }
      consumer = null;
    }
  }

  private synchronized void disconnect() {
    consumer = null;
    session = null;
    if (connection != null) {
      try {
        connection.close();
      } catch (JMSException e) {
        log.debug("{}: closing the connection failed", name, e);
      }
      connection = null;
    }
  }

  private void pause(Duration duration) {
    try {
      stopping.await(duration.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }
}
