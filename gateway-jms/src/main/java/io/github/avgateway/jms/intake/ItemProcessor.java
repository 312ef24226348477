package io.github.avgateway.jms.intake;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

/**
 * What a {@link Batch} does with each message it takes: answer a request (the reply stage's {@code
 * RequestProcessor}) or forward a clean-pipe message (the pipe stage's {@code PipeProcessor}).
 * Whatever it sends goes through the consumer's transacted session, so it commits or rolls back
 * with the batch.
 */
public interface ItemProcessor {

  /**
   * Handles {@code message}; throws only for broker failures, after which the caller rolls back.
   */
  Handled handle(Message message, ConsumerSession session) throws JMSException;
}
