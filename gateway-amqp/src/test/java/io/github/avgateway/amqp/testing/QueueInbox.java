package io.github.avgateway.amqp.testing;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/** Reads a queue in a test: drains it into a list and waits for a message that matches. */
public final class QueueInbox {

  private final RabbitTemplate template;
  private final String queue;
  private final List<Message> received = new CopyOnWriteArrayList<>();

  public QueueInbox(RabbitTemplate template, String queue) {
    this.template = template;
    this.queue = queue;
  }

  /** Waits up to {@code timeout} for a message matching {@code match}, and returns it. */
  public Message await(Predicate<Message> match, Duration timeout) {
    Awaitility.await("a message on " + queue)
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> drain().stream().anyMatch(match));
    return received.stream().filter(match).findFirst().orElseThrow();
  }

  /** Everything received so far, after taking what is on the queue now. */
  public List<Message> drain() {
    Message message;
    while ((message = template.receive(queue)) != null) {
      received.add(message);
    }
    return List.copyOf(received);
  }

  /** Messages matching {@code match} received so far. */
  public List<Message> matching(Predicate<Message> match) {
    return drain().stream().filter(match).toList();
  }

  public static Predicate<Message> correlationId(String id) {
    return m -> id.equals(m.getMessageProperties().getCorrelationId());
  }

  public static Predicate<Message> messageId(String id) {
    return m -> id.equals(m.getMessageProperties().getMessageId());
  }
}
