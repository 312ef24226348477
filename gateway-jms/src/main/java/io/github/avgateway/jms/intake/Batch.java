package io.github.avgateway.jms.intake;

import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.transport.IntakeHold;
import io.github.avgateway.jms.history.HistoryRoom;
import io.github.avgateway.jms.history.HistorySent;
import io.github.avgateway.jms.history.JmsHistory;
import io.github.avgateway.jms.history.JmsHistoryBuffer;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transaction of a consumer (smart batching): the first request plus whatever is already
 * waiting, up to the batch size, without waiting for more. Each request is handled in turn; then
 * the batch's history documents are made durable on the history queue, and only then does the batch
 * commit its replies, dead-letters and consumption (docs/architecture.md, "Guarantees"). By default
 * they go through the gateway's shared history buffer ({@link JmsHistoryBuffer}: one message,
 * committed on a session of its own, may hold several consumers' batches), which the batch waits
 * for before its commit; with {@code avgateway.history.buffer.enabled=false} the batch sends one
 * history message in its own transaction, committed together with the rest. No history store is on
 * this path.
 *
 * <p>An intake pause (clamd down, or the history backlog full) does not end the transaction: the
 * batch is held open (see {@link IntakeHold}) while the gate is down, then the request whose scan
 * failed is scanned again, or the history message the broker refused is sent again, and the batch
 * goes on. So an outage costs no delivery attempt. The batch rolls back (and the broker redelivers
 * all of it) when the hold time is spent or when handling throws.
 */
final class Batch {

  private static final Logger log = LoggerFactory.getLogger(Batch.class);

  private final ConsumerSession session;
  private final MessageConsumer consumer;
  private final String queue;
  private final ItemProcessor processor;
  private final ConsumerSettings settings;
  private final IntakeHold hold;
  private final HistoryBacklogGate backlog;
  private final HistoryRoom room;
  private final JmsHistoryBuffer shared;
  private final List<Handled.Done> done = new ArrayList<>();

  Batch(
      ConsumerSession session,
      MessageConsumer consumer,
      String queue,
      ItemProcessor processor,
      ConsumerSettings settings,
      IntakeHold hold,
      HistoryBacklogGate backlog,
      HistoryRoom room,
      JmsHistoryBuffer shared) {
    this.session = session;
    this.consumer = consumer;
    this.queue = queue;
    this.processor = processor;
    this.settings = settings;
    this.hold = hold;
    this.backlog = backlog;
    this.room = room;
    this.shared = shared;
  }

  /** Runs the batch that starts with {@code first}; throws only for broker failures. */
  void run(Message first) throws JMSException {
    if (take(first)) {
      commit();
    }
  }

  /**
   * Handles the batch that starts with {@code first} and makes its history durable, leaving the
   * transaction open for {@link #commit}; true then. False when it rolled the batch back already
   * (held too long, or an unexpected failure). Throws only for broker failures, after which the
   * caller rolls back. Without a consumer (a listener container hands over one message at a time
   * and none to take more from) the batch is {@code first} alone.
   */
  boolean take(Message first) throws JMSException {
    Message message = first;
    try {
      while (message != null) {
        if (!(handleTraced(message) instanceof Handled.Done handled)) {
          log.warn("Rolling back a batch for redelivery: held too long, {}", hold.why());
          session.rollback();
          return false;
        }
        done.add(handled);
        message = consumer != null && takesMore(message) ? consumer.receiveNoWait() : null;
      }
    } catch (RuntimeException e) {
      log.error("Rolling back a batch after an unexpected failure", e);
      session.rollback();
      return false;
    }
    if (!historySentHeld()) {
      log.warn("Rolling back a batch for redelivery: held too long, {}", hold.why());
      session.rollback();
      return false;
    }
    return true;
  }

  /**
   * Commits the batch {@link #take} handled: its replies, dead-letters and consumption (and, with
   * the history buffer off, its history message). A history message the broker refuses only at
   * commit rolls the batch back instead. Throws only for broker failures.
   */
  void commit() throws JMSException {
    log.debug("Committing a batch of {} requests (replies and history message sent)", done.size());
    try {
      session.commit();
    } catch (JMSException e) {
      if (!JmsHistory.backlogFull(e)) {
        throw e;
      }
      // The broker refused the history message only at commit (another batch took the last room
      // after this one checked): nothing of the batch is committed; it is delivered again.
      backlog.full(e.getMessage());
      log.warn("Rolling back a batch for redelivery: its history message was refused at commit");
      session.rollback();
    }
  }

  /**
   * Whether the batch may take another request after {@code last}. A redelivered request ends its
   * batch: a batch rolled back for one request that fails every time (a poison request) comes back
   * one redelivered request per batch, so each innocent request it dragged along is answered on its
   * next delivery instead of sharing the poison's rollbacks up to the delivery limit.
   */
  private boolean takesMore(Message last) throws JMSException {
    return done.size() < settings.batchSize() && !last.getJMSRedelivered();
  }

  /**
   * Handles one request inside its trace (current while it is handled, so that the scan and the
   * sends find it); its history document gets the trace id.
   */
  private Handled handleTraced(Message message) throws JMSException {
    RequestTrace trace = session.startTrace(message, queue, Instant.now());
    Handled handled;
    try (RequestTrace.Scope scope = trace.makeCurrent()) {
      handled = handleHeld(message);
    }
    if (handled instanceof Handled.Done(MessageInfo document)) {
      MessageInfo traced = document.withTraceId(trace.traceId());
      session.traces().done(trace, traced);
      return new Handled.Done(traced);
    }
    return handled;
  }

  /** Handles one request, holding the transaction and handling it again while intake is paused. */
  private Handled handleHeld(Message message) throws JMSException {
    while (hold.awaitOpen()) {
      Handled handled = processor.handle(message, session);
      if (handled instanceof Handled.Done) {
        return handled;
      }
    }
    return new Handled.RetryLater(hold.why());
  }

  /**
   * Sends the batch's history documents: through the shared buffer when there is one, else as one
   * history message in the batch's transaction. False when the hold time is spent.
   */
  private boolean historySentHeld() throws JMSException {
    if (session.historyQueue() == null) {
      return true;
    }
    List<MessageInfo> documents = done.stream().map(Handled.Done::document).toList();
    session.traces().handingOff();
    return shared == null ? sentInTransactionHeld(documents) : sentSharedHeld(documents);
  }

  /**
   * Hands the documents to the shared buffer and waits until the history message holding them is
   * committed (the batch commits only after it). While the backlog is full (the buffer's sender
   * closed the intake gate), holds the transaction and hands them over again once the gate is up. A
   * broker failure throws: the batch's transaction is then lost and its requests redelivered.
   */
  private boolean sentSharedHeld(List<MessageInfo> documents) throws JMSException {
    while (true) {
      switch (shared.send(documents)) {
        case HistorySent.Committed committed -> {
          return true;
        }
        case HistorySent.Full full -> {
          if (!hold.awaitOpen()) {
            return false;
          }
        }
        case HistorySent.Failed failed -> throw new JMSException(failed.why());
      }
    }
  }

  /**
   * Sends the batch's history message in its transaction. While the history address has no room
   * (asked first, where the broker can be asked) or the broker refuses the message because the
   * backlog is full, closes the intake gate and holds the transaction, sending again once the gate
   * is up (another batch or the gateway's probe found room).
   */
  private boolean sentInTransactionHeld(List<MessageInfo> documents) throws JMSException {
    while (true) {
      if (!room.hasRoom()) {
        backlog.full("the history address is at its page limit");
        if (!hold.awaitOpen()) {
          return false;
        }
        continue;
      }
      try {
        session.send(session.historyQueue(), JmsHistory.message(session.session(), documents));
        backlog.accepted(documents.size());
        return true;
      } catch (JMSException e) {
        if (!JmsHistory.backlogFull(e)) {
          throw e;
        }
        backlog.full(e.getMessage());
        if (!hold.awaitOpen()) {
          return false;
        }
      }
    }
  }
}
