package io.github.avgateway.amqp.triage;

import io.github.avgateway.core.model.DeadLetterReason;
import java.util.Objects;

/** Where the reply to one request goes, or why it cannot go anywhere. */
public sealed interface ReplyRoute {

  /**
   * Publish the reply to this queue through the default exchange.
   *
   * @param queue a queue name or a direct reply-to name ({@code amq.rabbitmq.reply-to.*})
   */
  record ToQueue(String queue) implements ReplyRoute {
    public ToQueue {
      Objects.requireNonNull(queue, "queue");
    }
  }

  /**
   * No reply can be sent; the request is dead-lettered after its scan.
   *
   * @param reason the dead-letter reason
   * @param detail a sentence for operators
   */
  record Undeliverable(DeadLetterReason reason, String detail) implements ReplyRoute {
    public Undeliverable {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
