package io.github.avgateway.amqp.reply;

import io.github.avgateway.core.trace.Intake;
import io.github.avgateway.core.trace.RequestTrace;
import io.github.avgateway.core.trace.RequestTracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Instant;
import java.util.Date;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;

/**
 * Trace context in AMQP 0-9-1 headers ({@code traceparent}, {@code tracestate}), and the request's
 * broker timestamp: the header {@code timestamp_in_ms} (RabbitMQ's message timestamp plugin), else
 * the {@code timestamp} property (seconds; set by the broker's plugin or the sender).
 */
public final class AmqpTraceHeaders {

  static final String TIMESTAMP_IN_MS = "timestamp_in_ms";

  static final Propagator.Getter<MessageProperties> GETTER =
      (props, name) -> {
        Object value = props.getHeaders().get(name);
        return value == null ? null : value.toString();
      };

  static final Propagator.Setter<MessageProperties> SETTER = MessageProperties::setHeader;

  private AmqpTraceHeaders() {}

  /** The trace of {@code message}, delivered at {@code receivedAt}. */
  public static RequestTrace start(RequestTracer tracer, Message message, Instant receivedAt) {
    if (tracer == RequestTracer.NONE) {
      return RequestTrace.NONE;
    }
    MessageProperties props = message.getMessageProperties();
    Intake intake = new Intake("rabbitmq", props.getConsumerQueue(), stampOf(props), receivedAt);
    return tracer.start(intake, props, GETTER);
  }

  /** The broker's (or sender's) timestamp of a message, or null. */
  static Instant stampOf(MessageProperties props) {
    if (props.getHeaders().get(TIMESTAMP_IN_MS) instanceof Number millis) {
      return Instant.ofEpochMilli(millis.longValue());
    }
    Date timestamp = props.getTimestamp();
    return timestamp == null ? null : timestamp.toInstant();
  }
}
