package io.github.avgateway.amqp.reply;

import com.rabbitmq.client.LongString;
import io.github.avgateway.core.wire.OriginalHeaders;
import io.github.avgateway.core.wire.WireNames;
import java.util.Map;
import java.util.Set;
import org.springframework.amqp.core.MessageProperties;

/**
 * Copies a request's headers onto its dead-letter so that no header the caller sent can fail or
 * redirect the dead-letter. A header is copied under its own name unless it is one the gateway sets
 * on the dead-letter itself, one RabbitMQ acts on when the gateway publishes ({@code CC} and {@code
 * BCC} would route copies of the dead-letter elsewhere), or a string or bytes value longer than
 * {@link OriginalHeaders#MAX_VALUE_CHARS}; those go into the one header {@code avOriginalHeaders}
 * (JSON, see {@link OriginalHeaders}). {@code x-death} and {@code x-first-death-exchange} describe
 * an earlier dead-lettering by the broker and are not carried.
 */
final class DeadLetterHeaders {

  /** Headers the gateway sets on a dead-letter; a request's own go to avOriginalHeaders. */
  static final Set<String> GATEWAY_NAMES =
      Set.of(
          WireNames.REASON, WireNames.REASON_DETAIL, WireNames.VERDICT, WireNames.ORIGINAL_HEADERS);

  /** RabbitMQ's sender-selected distribution: publishing with these routes to their keys too. */
  static final Set<String> ROUTING_HEADERS = Set.of("CC", "BCC");

  /** Broker-added headers that describe an earlier delivery, not the request. */
  private static final Set<String> DROPPED = Set.of("x-death", "x-first-death-exchange");

  private DeadLetterHeaders() {}

  static void copy(Map<String, Object> from, MessageProperties to) {
    OriginalHeaders carried = new OriginalHeaders();
    for (Map.Entry<String, Object> header : from.entrySet()) {
      String name = header.getKey();
      Object value = header.getValue();
      Object plain = value instanceof LongString text ? text.toString() : value;
      if (DROPPED.contains(name)) {
        continue;
      }
      if (GATEWAY_NAMES.contains(name)
          || ROUTING_HEADERS.contains(name)
          || !OriginalHeaders.fitsAsIs(plain)) {
        carried.carry(name, plain);
      } else {
        to.setHeader(name, value);
      }
    }
    if (!carried.isEmpty()) {
      to.setHeader(WireNames.ORIGINAL_HEADERS, carried.toJson());
    }
  }
}
