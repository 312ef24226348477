package io.github.avgateway.jms;

import io.github.avgateway.core.logging.RateLimitedWarning;
import io.github.avgateway.core.model.ScanRequest;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.LoggerFactory;

/**
 * Tells operators why a caller hears nothing: one WARN line per client id and refused reply
 * destination per minute (a caller can send refused requests at will), naming the request id, the
 * client id, the destination and why it was refused, never the payload or the file name.
 */
final class ReplyRefusals {

  private static final Duration WINDOW = Duration.ofMinutes(1);
  private static final int MAX_KEYS = 1000;

  private final RateLimitedWarning warning;

  ReplyRefusals(Clock clock) {
    warning =
        new RateLimitedWarning(
            LoggerFactory.getLogger(ReplyRefusals.class), WINDOW, MAX_KEYS, clock);
  }

  void refused(ScanRequest request, Destination replyTo, String why) {
    String client = request.clientId() == null ? "(none)" : request.clientId();
    String destination = describe(replyTo);
    warning.warn(
        client + "\n" + destination,
        "Refused reply destination {} of client {} ({}); request {} dead-lettered unscanned as"
            + " REPLY_DESTINATION_NOT_ALLOWED",
        destination,
        client,
        why,
        request.requestId());
  }

  private static String describe(Destination destination) {
    try {
      if (destination instanceof Queue queue) {
        return "queue " + queue.getQueueName();
      }
      if (destination instanceof Topic topic) {
        return "topic " + topic.getTopicName();
      }
    } catch (JMSException e) {
      // fall through to the destination's own description
    }
    return String.valueOf(destination);
  }
}
