package io.github.avgateway.jms.history;

import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.model.MessageInfo;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the history messages of the JMS history buffer: each persistent, on a transacted session of
 * its own connection, and committed before the future it returns completes. The consumers whose
 * documents a message holds commit their own transactions (replies and consumption) only after
 * that, so a request is acknowledged only after its history document is durable on the history
 * queue. Used by the buffer's one thread only; a broker failure closes the connection and the next
 * message opens a new one.
 */
final class JmsHistoryStream implements HistoryStream<HistorySent> {

  private static final Logger log = LoggerFactory.getLogger(JmsHistoryStream.class);

  private final ConnectionFactory factory;
  private final String queue;
  private final HistoryRoom room;
  private final HistoryBacklogGate backlog;
  private Connection connection;
  private Session session;
  private MessageProducer producer;

  JmsHistoryStream(
      ConnectionFactory factory, String queue, HistoryRoom room, HistoryBacklogGate backlog) {
    this.factory = factory;
    this.queue = queue;
    this.room = room;
    this.backlog = backlog;
  }

  @Override
  public CompletableFuture<HistorySent> send(List<MessageInfo> documents) {
    return CompletableFuture.completedFuture(commit(documents));
  }

  private HistorySent commit(List<MessageInfo> documents) {
    if (!room.hasRoom()) {
      String why = "the history address is at its page limit";
      backlog.full(why);
      return new HistorySent.Full(why);
    }
    try {
      Session open = session();
      producer.send(JmsHistory.message(open, documents));
      open.commit();
      backlog.accepted(documents.size());
      return new HistorySent.Committed();
    } catch (JMSException e) {
      if (JmsHistory.backlogFull(e)) {
        rollbackQuietly();
        backlog.full(e.getMessage());
        return new HistorySent.Full(e.getMessage());
      }
      log.warn("A history message of {} documents failed: {}", documents.size(), e.toString());
      close();
      return new HistorySent.Failed(e.toString());
    }
  }

  private Session session() throws JMSException {
    if (session == null) {
      Connection opened = factory.createConnection();
      try {
        Session transacted = opened.createSession(Session.SESSION_TRANSACTED);
        producer = transacted.createProducer(transacted.createQueue(queue));
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        connection = opened;
        session = transacted;
      } catch (JMSException | RuntimeException e) {
        opened.close();
        throw e;
      }
    }
    return session;
  }

  private void rollbackQuietly() {
    try {
      session.rollback();
    } catch (JMSException e) {
      log.debug("rolling back a refused history message failed", e);
      close();
    }
  }

  /** Closes the connection; the next message opens a new one. */
  void close() {
    Connection open = connection;
    connection = null;
    session = null;
    producer = null;
    if (open != null) {
      try {
        open.close();
      } catch (JMSException e) {
        log.debug("closing the history connection failed", e);
      }
    }
  }
}
