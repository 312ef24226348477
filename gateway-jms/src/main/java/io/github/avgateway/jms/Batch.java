package io.github.avgateway.jms;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transaction of a consumer (smart batching): the first request plus whatever is already
 * waiting, up to the batch size, without waiting for more. Each request is handled in turn; then
 * the batch hands all its history documents to the store back to back (so the store's writer sends
 * them as one update, not one per request while the next is scanned) and commits once history has
 * accepted them all.
 *
 * <p>An intake pause (clamd or Solr down) does not end the transaction: the batch is held open (see
 * {@link IntakeHold}) while the gate is down, then the request whose scan failed is scanned again,
 * or the documents history refused are recorded again, and the batch goes on. So an outage costs no
 * delivery attempt. The batch rolls back (and the broker redelivers all of it) when the hold time
 * is spent, when history fails while the gate is up, or when handling throws.
 */
final class Batch {

  private static final Logger log = LoggerFactory.getLogger(Batch.class);

  private final ConsumerSession session;
  private final MessageConsumer consumer;
  private final RequestProcessor processor;
  private final ConsumerSettings settings;
  private final IntakeHold hold;
  private final List<Handled.Done> done = new ArrayList<>();

  Batch(
      ConsumerSession session,
      MessageConsumer consumer,
      RequestProcessor processor,
      ConsumerSettings settings,
      IntakeHold hold) {
    this.session = session;
    this.consumer = consumer;
    this.processor = processor;
    this.settings = settings;
    this.hold = hold;
  }

  /** Runs the batch that starts with {@code first}; throws only for broker failures. */
  void run(Message first) throws JMSException {
    Message message = first;
    try {
      while (message != null) {
        if (!(handleHeld(message) instanceof Handled.Done handled)) {
          log.warn("Rolling back a batch for redelivery: held too long, {}", hold.why());
          session.rollback();
          return;
        }
        done.add(handled);
        message = takesMore(message) ? consumer.receiveNoWait() : null;
      }
    } catch (RuntimeException e) {
      log.error("Rolling back a batch after an unexpected failure", e);
      session.rollback();
      return;
    }
    if (historyAcceptedHeld()) {
      session.commit();
    } else {
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
   * Whether history accepted every document. While it fails with the intake gate down, holds the
   * transaction and records the documents again once the gate is up; a failure while the gate is up
   * (the store may have come back between the failure and this check) is retried once.
   */
  private boolean historyAcceptedHeld() {
    List<CompletableFuture<Void>> pending = recordAll();
    boolean retriedWhileUp = false;
    while (!historyAccepted(pending)) {
      if (hold.isDown()) {
        if (!hold.awaitOpen()) {
          return false;
        }
      } else if (retriedWhileUp) {
        return false;
      } else {
        retriedWhileUp = true;
      }
      log.info("Recording the {} documents of a batch again", done.size());
      pending = recordAll();
    }
    return true;
  }

  private List<CompletableFuture<Void>> recordAll() {
    return done.stream().map(d -> processor.record(d.document())).toList();
  }

  private boolean historyAccepted(List<CompletableFuture<Void>> pending) {
    CompletableFuture<Void> all =
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new));
    try {
      all.get(settings.historyTimeout().toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException e) {
      log.warn("History refused a batch of {}: {}", pending.size(), e.getCause().toString());
    } catch (TimeoutException e) {
      log.warn(
          "History did not accept a batch of {} within {}",
          pending.size(),
          settings.historyTimeout());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }
}
