package io.github.avgateway.jms.intake;

import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.transport.IntakeHold;
import io.github.avgateway.jms.history.HistoryRoom;
import io.github.avgateway.jms.history.JmsHistoryBuffer;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.jms.listener.SessionAwareMessageListener;

/**
 * The intake on Spring JMS ({@code avgateway.jms.intake=listener-container}): one {@link
 * DefaultMessageListenerContainer} per consumed queue, {@code consumers} invoker threads on one
 * shared connection, each with its own transacted session and cached message consumer. The
 * container receives the first request of a batch (waiting up to {@code receive-timeout}) and hands
 * it, with the session, to the listener; the listener runs a {@link Batch} on that session, which
 * takes further requests with {@code receiveNoWait} from the very consumer the container received
 * from (this class records it in {@link #receiveMessage}), sends every reply, dead-letter and
 * forward on the same session and waits until the history message is committed. The container then
 * commits at its usual place ({@link #commitIfNecessary}), through {@link Batch#commit}: replies,
 * dead-letters and the consumption of every request of the batch in one commit, as with {@link
 * BatchConsumer}. A listener that throws leaves the rollback to the container.
 *
 * <p>The container does not pause by itself: {@link ContainerIntakeWatch} stops it while the intake
 * gate is down and starts it again; a batch caught in flight is held open ({@link JmsIntakeHold}).
 * It accepts a message received while stopping, so that a request taken just as the gate closed is
 * held rather than rolled back (which would cost it a delivery attempt).
 */
final class BatchListenerContainer extends DefaultMessageListenerContainer {

  private static final Logger log = LoggerFactory.getLogger(BatchListenerContainer.class);

  /**
   * The consumer the current invoker thread received from. Static: each invoker thread belongs to
   * one container and sets it before every receive.
   */
  private static final ThreadLocal<MessageConsumer> RECEIVING = new ThreadLocal<>();

  /** The batch the current invoker thread's listener handled and leaves to the commit. */
  private static final ThreadLocal<Batch> TO_COMMIT = new ThreadLocal<>();

  /** The current invoker thread's session, as the batches use it; made again with a new session. */
  private static final ThreadLocal<ConsumerSession> SESSIONS = new ThreadLocal<>();

  private final String queue;
  private final ItemProcessor processor;
  private final ConsumerSettings settings;
  private final IntakeGate gate;
  private final HistoryBacklogGate backlog;
  private final HistoryRoom room;
  private final QueueLookup lookup;
  private final JmsHistoryBuffer shared;
  private final CountDownLatch stopping;

  /**
   * @param name the bean name, and the prefix of the invoker threads' names
   * @param consumers how many invoker threads (each its own session and consumer)
   * @param shared the history buffer, or null to send each batch's history in its transaction
   * @param stopping counted down when the gateway stops; ends a hold at once
   */
  BatchListenerContainer(
      String name,
      ConnectionFactory factory,
      int consumers,
      ConsumerSettings settings,
      String queue,
      ItemProcessor processor,
      IntakeGate gate,
      HistoryBacklogGate backlog,
      HistoryRoom room,
      QueueLookup lookup,
      JmsHistoryBuffer shared,
      CountDownLatch stopping) {
    this.queue = queue;
    this.processor = processor;
    this.settings = settings;
    this.gate = gate;
    this.backlog = backlog;
    this.room = room;
    this.lookup = lookup;
    this.shared = shared;
    this.stopping = stopping;
    setBeanName(name);
    setConnectionFactory(factory);
    setDestinationName(queue);
    setSessionTransacted(true);
    setCacheLevel(CACHE_CONSUMER);
    setConcurrentConsumers(consumers);
    setMaxConcurrentConsumers(consumers);
    setReceiveTimeout(settings.receiveTimeout().toMillis());
    setRecoveryInterval(1000);
    setAcceptMessagesWhileStopping(true);
    setAutoStartup(false);
    setMessageListener((SessionAwareMessageListener<Message>) this::onMessage);
  }

  /** Runs the batch that starts with {@code first} on the container's session {@code session}. */
  private void onMessage(Message first, Session session) throws JMSException {
    IntakeHold hold =
        new JmsIntakeHold(gate, settings.pausePollInterval(), settings.pauseHoldTime(), stopping);
    Batch batch =
        new Batch(
            consumerSession(session),
            RECEIVING.get(),
            queue,
            processor,
            settings,
            hold,
            backlog,
            room,
            shared);
    if (batch.take(first)) {
      TO_COMMIT.set(batch);
    }
  }

  /** The session as the batches use it; the same object as long as the container keeps it. */
  @SuppressWarnings("ReferenceEquality") // the container's session object, not an equal one
  private ConsumerSession consumerSession(Session session) throws JMSException {
    ConsumerSession current = SESSIONS.get();
    if (current == null || current.session() != session) {
      current = new ConsumerSession(session, settings, lookup);
      SESSIONS.set(current);
    }
    return current;
  }

  @Override
  protected Message receiveMessage(MessageConsumer consumer) throws JMSException {
    RECEIVING.set(consumer);
    return super.receiveMessage(consumer);
  }

  /** An empty receive leaves nothing to commit in a local transaction: no round trip for it. */
  @Override
  protected boolean shouldCommitAfterNoMessageReceived(Session session) {
    return false;
  }

  /**
   * Commits the batch the listener handled (the listener rolled back already when there is none).
   */
  @Override
  protected void commitIfNecessary(Session session, Message message) throws JMSException {
    Batch batch = TO_COMMIT.get();
    TO_COMMIT.remove();
    if (batch != null) {
      batch.commit();
    }
  }

  /** The listener failed (a broker failure): the batch's traces fail with the rollback. */
  @Override
  @SuppressWarnings("ReferenceEquality") // the container's session object, not an equal one
  protected void rollbackOnExceptionIfNecessary(Session session, Throwable ex) throws JMSException {
    TO_COMMIT.remove();
    ConsumerSession current = SESSIONS.get();
    if (current != null && current.session() == session) {
      current.traces().rolledBack("broker failure: " + ex);
      try {
        current.rollback();
      } catch (JMSException | RuntimeException e) {
        log.debug("{}: rolling back after a listener failure failed", getBeanName(), e);
      }
      return;
    }
    super.rollbackOnExceptionIfNecessary(session, ex);
  }
}
