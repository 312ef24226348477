package io.github.avgateway.jms.triage;

import jakarta.jms.Destination;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;

/**
 * A request's {@code JMSReplyTo} as a queue or topic. Core and AMQP 1.0 senders give it typed (a
 * Core JMS queue; AMQP's reply-to, a queue unless annotated otherwise). A STOMP sender's {@code
 * reply-to} header arrives as a bare address: {@code /queue/NAME} and a plain {@code NAME} are the
 * queue {@code NAME}, {@code /topic/NAME} is a topic (which the reply policy refuses), the prefixes
 * being those of the embedded broker's acceptor.
 */
public final class ReplyAddress {

  /** The acceptor's anycast prefix: a STOMP destination {@code /queue/NAME} is the queue NAME. */
  public static final String QUEUE_PREFIX = "/queue/";

  /** The acceptor's multicast prefix: a STOMP destination {@code /topic/NAME} is a topic. */
  public static final String TOPIC_PREFIX = "/topic/";

  private ReplyAddress() {}

  /** {@code replyTo} typed as a queue or topic when it is a bare address; else itself. */
  static Destination typed(Destination replyTo) {
    if (!(replyTo instanceof ActiveMQDestination address)
        || address.getType() != ActiveMQDestination.TYPE.DESTINATION
        || address.getAddress() == null) {
      return replyTo;
    }
    String name = address.getAddress();
    if (name.startsWith(TOPIC_PREFIX)) {
      return ActiveMQDestination.createTopic(name.substring(TOPIC_PREFIX.length()));
    }
    if (name.startsWith(QUEUE_PREFIX)) {
      return ActiveMQDestination.createQueue(name.substring(QUEUE_PREFIX.length()));
    }
    return ActiveMQDestination.createQueue(name);
  }
}
