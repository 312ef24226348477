package io.github.avgateway.jms.intake;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.trace.RequestTracer;
import io.github.avgateway.jms.config.JmsProperties;
import java.time.Duration;

/**
 * What every consumer of the request queue is configured with (a slice of {@link JmsProperties} and
 * the history stream's settings).
 *
 * @param requestQueue the queue requests arrive on
 * @param deadLetterQueue where dead-letters are sent
 * @param defaultReplyQueue where replies go when a request has no JMSReplyTo, or null
 * @param batchSize at most this many requests per transaction
 * @param receiveTimeout how long an idle consumer blocks for the first request of a batch
 * @param historyQueue where the batches' history messages go, or null when history is off
 * @param pausePollInterval how often a paused consumer asks the intake gate again
 * @param pauseHoldTime how long a batch caught by an intake pause is held open before it rolls back
 * @param tracer traces each request ({@link RequestTracer#NONE} when tracing is off)
 */
public record ConsumerSettings(
    String requestQueue,
    String deadLetterQueue,
    String defaultReplyQueue,
    int batchSize,
    Duration receiveTimeout,
    String historyQueue,
    Duration pausePollInterval,
    Duration pauseHoldTime,
    RequestTracer tracer) {

  public static ConsumerSettings of(
      JmsProperties properties, HistoryStreamProperties history, RequestTracer tracer) {
    return new ConsumerSettings(
        properties.requestQueue(),
        properties.deadLetterQueue(),
        blankToNull(properties.defaultReplyQueue()),
        properties.batchSize(),
        properties.receiveTimeout(),
        history.enabled() ? history.queue() : null,
        properties.pausePollInterval(),
        properties.pauseHoldTime(),
        tracer);
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
