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
 * the batch commits once history has accepted all its documents. It rolls back instead (and the
 * broker redelivers every request of the batch) when history fails or times out, when a request is
 * to be retried, or when handling throws.
 */
final class Batch {

  private static final Logger log = LoggerFactory.getLogger(Batch.class);

  private final ConsumerSession session;
  private final MessageConsumer consumer;
  private final RequestProcessor processor;
  private final ConsumerSettings settings;
  private final List<CompletableFuture<Void>> history = new ArrayList<>();

  Batch(
      ConsumerSession session,
      MessageConsumer consumer,
      RequestProcessor processor,
      ConsumerSettings settings) {
    this.session = session;
    this.consumer = consumer;
    this.processor = processor;
    this.settings = settings;
  }

  /** Runs the batch that starts with {@code first}; throws only for broker failures. */
  void run(Message first) throws JMSException {
    Message message = first;
    try {
      while (message != null) {
        switch (processor.handle(message, session)) {
          case Handled.RetryLater retry -> {
            log.warn("Rolling back a batch for redelivery: {}", retry.why());
            session.rollback();
            return;
          }
          case Handled.Done done -> history.add(done.history());
        }
        message = history.size() < settings.batchSize() ? consumer.receiveNoWait() : null;
      }
    } catch (RuntimeException e) {
      log.error("Rolling back a batch after an unexpected failure", e);
      session.rollback();
      return;
    }
    if (historyAccepted()) {
      session.commit();
    } else {
      session.rollback();
    }
  }

  private boolean historyAccepted() {
    CompletableFuture<Void> all =
        CompletableFuture.allOf(history.toArray(CompletableFuture[]::new));
    try {
      all.get(settings.historyTimeout().toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException e) {
      log.warn(
          "History refused a batch of {}, rolling back: {}",
          history.size(),
          e.getCause().toString());
    } catch (TimeoutException e) {
      log.warn(
          "History did not accept a batch of {} within {}, rolling back",
          history.size(),
          settings.historyTimeout());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }
}
