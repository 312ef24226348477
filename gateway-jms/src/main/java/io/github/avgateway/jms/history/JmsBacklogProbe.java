package io.github.avgateway.jms.history;

import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.RepeatingCheck;
import io.github.avgateway.core.port.Availability;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Reopens intake after a full history backlog: while the {@link HistoryBacklogGate} is down, asks
 * every interval whether the history address has room, and opens the gate once it has. On the
 * embedded broker it asks the broker's paging store (no message, no broker error log); on an
 * external broker it sends an empty history message (no documents; the indexer acknowledges it),
 * and the broker accepting it is the answer. Without it, consumers paused by a full backlog would
 * have nobody to find out that the indexer made room.
 */
public final class JmsBacklogProbe implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(JmsBacklogProbe.class);

  private final ConnectionFactory factory;
  private final String queue;
  private final HistoryRoom room;
  private final HistoryBacklogGate gate;
  private final RepeatingCheck repeating;
  private Connection connection;

  /**
   * @param room the embedded broker's answer; {@link HistoryRoom#UNKNOWN} for an external broker,
   *     which is probed by sending through {@code factory}
   */
  public JmsBacklogProbe(
      ConnectionFactory factory,
      String queue,
      HistoryRoom room,
      HistoryBacklogGate gate,
      Duration interval) {
    this.factory = factory;
    this.queue = queue;
    this.room = room;
    this.gate = gate;
    this.repeating = new RepeatingCheck("jms-history-backlog-probe", this::probe, interval);
  }

  @Override
  public void start() {
    repeating.start();
  }

  @Override
  public synchronized void stop() {
    repeating.stop();
    close();
  }

  @Override
  public boolean isRunning() {
    return repeating.running();
  }

  private void probe() {
    if (gate.intake() instanceof Availability.Up) {
      close();
      return;
    }
    if (room != HistoryRoom.UNKNOWN) {
      if (room.hasRoom()) {
        gate.accepted();
      }
      return;
    }
    try {
      if (connection == null) {
        connection = factory.createConnection();
      }
      try (Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
          MessageProducer producer = session.createProducer(session.createQueue(queue))) {
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        producer.send(JmsHistory.message(session, List.of()));
      }
      gate.accepted();
    } catch (JMSException e) {
      if (!JmsHistory.backlogFull(e)) {
        log.debug("history backlog probe failed; trying again", e);
        close();
      }
    }
  }

  private void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (JMSException e) {
        log.debug("closing the probe's connection failed", e);
      }
      connection = null;
    }
  }
}
