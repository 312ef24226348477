package io.github.avgateway.core.contract;

import java.util.Map;

/**
 * A message a {@link PipeDriver} took off an outlet, a dead-letter queue or a reply destination.
 *
 * @param body its body
 * @param properties its string headers or properties (other types as their text)
 * @param requestId the request id it names (AMQP: its {@code message_id}; JMS: its {@code
 *     avRequestId} property), or null
 * @param transportMessage the transport's own message, for {@link
 *     PipeDriver#assertProducerFieldsKept}
 */
public record PipeMessage(
    byte[] body, Map<String, String> properties, String requestId, Object transportMessage) {

  public PipeMessage {
    properties = Map.copyOf(properties);
  }

  /** The value of {@code name}, or null. */
  public String property(String name) {
    return properties.get(name);
  }
}
