package io.github.avgateway.jms.triage;

import io.github.avgateway.core.transport.ReplyDestinationPolicy;
import io.github.avgateway.core.transport.ReplyDestinationRule;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.Topic;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where a caller may have replies sent, so that a request cannot make the gateway write into
 * arbitrary queues: a temporary queue (created by the caller's own connection, gone with it), or a
 * queue whose name matches the allow-list pattern as a whole, and never one of the gateway's own
 * queues (which would feed replies back in as requests; core's {@link ReplyDestinationRule}).
 * Topics are refused. The configured default reply queue is the operator's choice and is not
 * checked. No I/O.
 */
public final class JmsReplyDestinationPolicy implements ReplyDestinationPolicy<Destination> {

  private final ReplyDestinationRule rule;

  /**
   * @param allowed the whole-name pattern a named reply queue must match
   * @param ownQueues queue names a reply never goes to (the request and dead-letter queues)
   */
  public JmsReplyDestinationPolicy(Pattern allowed, Set<String> ownQueues) {
    this.rule = new ReplyDestinationRule(allowed, ownQueues);
  }

  @Override
  public Optional<String> refusal(Destination replyTo) {
    if (replyTo instanceof TemporaryQueue) {
      return Optional.empty();
    }
    if (!(replyTo instanceof Queue queue)) {
      return Optional.of("JMSReplyTo is not a queue: " + replyTo);
    }
    String name;
    try {
      name = queue.getQueueName();
    } catch (JMSException e) {
      return Optional.of("JMSReplyTo has no readable queue name: " + e.getMessage());
    }
    return rule.refusal("JMSReplyTo", name);
  }

  /** {@code destination} for operators: {@code queue NAME}, {@code topic NAME}, or its own text. */
  public static String describe(Destination destination) {
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
