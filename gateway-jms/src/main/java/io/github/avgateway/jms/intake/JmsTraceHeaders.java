package io.github.avgateway.jms.intake;

import io.micrometer.tracing.propagation.Propagator;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * Trace context in JMS string properties ({@code traceparent}, {@code tracestate}): where Core
 * callers set them, and where Artemis puts STOMP headers and AMQP 1.0 application properties of
 * those names. A property that cannot be read is absent; one that cannot be written is left out.
 *
 * <p>Artemis messages are read and written through their Core message, with each name's {@link
 * SimpleString} made once: the JMS methods make a new one per call, and store a value through a
 * pool that hashes it first, which a {@code traceparent} (new for every request) never hits. They
 * read and write the same property; the JMS-defined names ({@code JMS...}), which the JMS layer
 * maps, and any name but {@code traceparent} and {@code tracestate} on writes (the JMS layer
 * refuses a name that is no Java identifier, such as a baggage field {@code x-tenant}) still go
 * through JMS.
 */
final class JmsTraceHeaders {

  /** At most this many names keep their {@link SimpleString} (a propagation reads a handful). */
  private static final int KEYS_KEPT = 64;

  private static final Map<String, SimpleString> KEYS = new ConcurrentHashMap<>();
  private static final SimpleString TRACEPARENT = SimpleString.of("traceparent");
  private static final SimpleString TRACESTATE = SimpleString.of("tracestate");

  static final Propagator.Getter<Message> GETTER =
      (message, name) -> {
        try {
          if (message instanceof ActiveMQMessage artemis && !name.startsWith("JMS")) {
            return artemis.getCoreMessage().getStringProperty(key(name));
          }
          return message.getStringProperty(name);
        } catch (JMSException | RuntimeException e) {
          return null;
        }
      };

  static final Propagator.Setter<Message> SETTER =
      (message, name, value) -> {
        try {
          SimpleString key = writtenDirectly(name);
          if (key != null && message instanceof ActiveMQMessage artemis) {
            artemis.getCoreMessage().putStringProperty(key, SimpleString.of(value));
          } else {
            message.setStringProperty(name, value);
          }
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

  /** The Core name of {@code name}, made once while fewer than {@link #KEYS_KEPT} are kept. */
  static SimpleString key(String name) {
    SimpleString key = KEYS.get(name);
    if (key != null) {
      return key;
    }
    key = SimpleString.of(name);
    if (KEYS.size() < KEYS_KEPT) {
      KEYS.putIfAbsent(name, key);
    }
    return key;
  }

  /** The Core name of a trace context property written without the JMS layer, else null. */
  private static SimpleString writtenDirectly(String name) {
    return switch (name) {
      case "traceparent" -> TRACEPARENT;
      case "tracestate" -> TRACESTATE;
      default -> null;
    };
  }
}
