package io.github.avgateway.jms.intake;

import io.github.avgateway.core.trace.Intake;
import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.core.trace.TraceStep;
import io.github.avgateway.jms.triage.JmsReplyDestinationPolicy;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.activemq.artemis.api.jms.ActiveMQJMSClient;

/**
 * One consumer's transacted session and what it sends with: an anonymous producer, the dead-letter
 * queue, the default reply queue (if any), the history queue (unless history is off) and the
 * clean-pipe outlets it forwarded to. Everything sent here commits or rolls back with the requests
 * received on the same session. Used by one thread only. Every send passes {@link KnownQueues},
 * which spares the Artemis client's two queries to the broker before a reply where it can.
 */
public final class ConsumerSession {

  private final Session session;
  private final MessageProducer producer;
  private final Destination deadLetterQueue;
  private final Destination defaultReplyTo;
  private final Destination historyQueue;
  private final Map<String, Destination> queues = new HashMap<>();
  private final KnownQueues known;
  private final RequestTracer tracer;
  private final BatchTraces traces = new BatchTraces();

  ConsumerSession(Session session, ConsumerSettings settings, QueueLookup lookup)
      throws JMSException {
    this.session = session;
    this.known = new KnownQueues(lookup);
    this.tracer = settings.tracer();
    this.producer = session.createProducer(null);
    this.producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    this.deadLetterQueue = session.createQueue(settings.deadLetterQueue());
    this.defaultReplyTo = queueOrNull(settings.defaultReplyQueue());
    this.historyQueue = queueOrNull(settings.historyQueue());
  }

  private Destination queueOrNull(String name) throws JMSException {
    return name == null ? null : session.createQueue(name);
  }

  public Session session() {
    return session;
  }

  Destination requestQueue(String name) throws JMSException {
    return session.createQueue(name);
  }

  /**
   * The queue {@code name} (a clean-pipe's outlet), made once per session without asking the
   * broker: {@code Session.createQueue} of Artemis fails with a bare {@code JMSException} for a
   * queue that does not exist, while a send to it fails with {@code InvalidDestinationException},
   * which the gateway dead-letters as unroutable.
   */
  public Destination queue(String name) {
    return queues.computeIfAbsent(name, ActiveMQJMSClient::createQueue);
  }

  public Destination deadLetterQueue() {
    return deadLetterQueue;
  }

  /** The configured default reply queue, or null. */
  public Destination defaultReplyTo() {
    return defaultReplyTo;
  }

  /** The history queue, or null when history is off. */
  Destination historyQueue() {
    return historyQueue;
  }

  /**
   * The trace of {@code message}, taken from {@code queue} at {@code receivedAt}; it ends when this
   * transaction commits or rolls back.
   */
  RequestTrace startTrace(Message message, String queue, Instant receivedAt) {
    Intake intake = new Intake("jms", queue, JmsTraceHeaders.sentAt(message), receivedAt);
    RequestTrace trace = tracer.start(intake, message, JmsTraceHeaders.GETTER);
    traces.started(trace);
    return trace;
  }

  /** The traces of this transaction's requests. */
  BatchTraces traces() {
    return traces;
  }

  /**
   * Sends a reply or dead-letter (or the history message), carrying the current request's trace
   * context (not the history message, which is every request's).
   */
  public void send(Destination destination, Message message) throws JMSException {
    TraceStep step =
        destination == historyQueue
            ? TraceStep.NONE
            : publishing(
                destination == deadLetterQueue ? "dead-letter" : "reply", destination, message);
    Destination target = known.beforeSend(destination);
    sendTraced(target, message, step, () -> producer.send(target, message));
  }

  /**
   * Sends {@code message} persistent with {@code priority} and {@code timeToLive} (0: never
   * expires), as a clean-pipe forward keeps the producer's.
   */
  public void send(Destination destination, Message message, int priority, long timeToLive)
      throws JMSException {
    TraceStep step = publishing("forward", destination, message);
    Destination target = known.beforeSend(destination);
    sendTraced(
        target,
        message,
        step,
        () -> producer.send(target, message, DeliveryMode.PERSISTENT, priority, timeToLive));
  }

  private static TraceStep publishing(String name, Destination destination, Message message) {
    return RequestTrace.current()
        .publish(
            name, JmsReplyDestinationPolicy.describe(destination), message, JmsTraceHeaders.SETTER);
  }

  /** Sends; the step lasts until the transaction ends, or fails with the send. */
  private void sendTraced(Destination target, Message message, TraceStep step, Send send)
      throws JMSException {
    try {
      send.run();
    } catch (JMSException | RuntimeException e) {
      step.fail(e.toString());
      throw e;
    }
    known.sent(target);
    traces.step(step);
  }

  /** One send of the producer. */
  @FunctionalInterface
  private interface Send {
    void run() throws JMSException;
  }

  void commit() throws JMSException {
    try {
      session.commit();
      traces.committed();
    } catch (JMSException | RuntimeException e) {
      traces.rolledBack("commit failed: " + e);
      throw e;
    } finally {
      known.transactionEnded();
    }
  }

  void rollback() throws JMSException {
    traces.rolledBack("rolled back");
    try {
      session.rollback();
    } finally {
      known.transactionEnded();
    }
  }
}
