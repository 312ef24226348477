package io.github.avgateway.jms;

import io.github.avgateway.jms.config.JmsProperties;
import java.time.Duration;

/**
 * What every consumer of the request queue is configured with (a slice of {@link JmsProperties}).
 *
 * @param requestQueue the queue requests arrive on
 * @param deadLetterQueue where dead-letters are sent
 * @param defaultReplyQueue where replies go when a request has no JMSReplyTo, or null
 * @param batchSize at most this many requests per transaction
 * @param receiveTimeout how long an idle consumer blocks for the first request of a batch
 * @param historyTimeout how long a batch waits for history before rolling back
 * @param pausePollInterval how often a paused consumer asks the intake gate again
 * @param pauseHoldTime how long a batch caught by an intake pause is held open before it rolls back
 */
record ConsumerSettings(
    String requestQueue,
    String deadLetterQueue,
    String defaultReplyQueue,
    int batchSize,
    Duration receiveTimeout,
    Duration historyTimeout,
    Duration pausePollInterval,
    Duration pauseHoldTime) {

  static ConsumerSettings of(JmsProperties properties) {
    return new ConsumerSettings(
        properties.requestQueue(),
        properties.deadLetterQueue(),
        blankToNull(properties.defaultReplyQueue()),
        properties.batchSize(),
        properties.receiveTimeout(),
        properties.historyTimeout(),
        properties.pausePollInterval(),
        properties.pauseHoldTime());
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
