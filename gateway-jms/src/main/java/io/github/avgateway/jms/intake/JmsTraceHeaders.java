package io.github.avgateway.jms.intake;

import io.micrometer.tracing.propagation.Propagator;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Instant;

/**
 * Trace context in JMS string properties ({@code traceparent}, {@code tracestate}): where Core
 * callers set them, and where Artemis puts STOMP headers and AMQP 1.0 application properties of
 * those names. A property that cannot be read is absent; one that cannot be written is left out.
 */
final class JmsTraceHeaders {

  static final Propagator.Getter<Message> GETTER =
      (message, name) -> {
        try {
          return message.getStringProperty(name);
        } catch (JMSException | RuntimeException e) {
          return null;
        }
      };

  static final Propagator.Setter<Message> SETTER =
      (message, name, value) -> {
        try {
          message.setStringProperty(name, value);
        } catch (JMSException | RuntimeException e) {
          // trace context is best effort: the message goes without it
        }
      };

  private JmsTraceHeaders() {}

  /** {@code JMSTimestamp} (set when the message was sent), or null when there is none. */
  static Instant sentAt(Message message) {
    try {
      long millis = message.getJMSTimestamp();
      return millis > 0 ? Instant.ofEpochMilli(millis) : null;
    } catch (JMSException e) {
      return null;
    }
  }
}
