package io.github.avgateway.core.transport;

import io.github.avgateway.core.model.DeadLetterReason;
import java.util.Objects;

/**
 * Where the reply to one scanned request goes, or why it cannot go anywhere (then the request is
 * dead-lettered after its scan, so that its history document says what it carried).
 *
 * @param <D> the transport's reply destination: a queue name on AMQP, a JMS {@code Destination}
 */
public sealed interface ReplyRoute<D> {

  /**
   * Send the reply to {@code destination}.
   *
   * @param destination never null
   */
  record To<D>(D destination) implements ReplyRoute<D> {
    public To {
      Objects.requireNonNull(destination, "destination");
    }
  }

  /**
   * No reply can be sent: dead-letter the request after its scan.
   *
   * @param reason the dead-letter reason
   * @param detail a sentence for operators
   */
  record Undeliverable<D>(DeadLetterReason reason, String detail) implements ReplyRoute<D> {
    public Undeliverable {
      Objects.requireNonNull(reason, "reason");
    }

    /** The dead-letter this route ends in. */
    public DeadLetter deadLetter() {
      return new DeadLetter(reason, detail);
    }
  }
}
