package io.github.avgateway.core.transport;

import io.github.avgateway.core.model.DeadLetterReason;
import java.util.Objects;

/**
 * A request's way to the dead-letter queue: the reason it carries there ({@code avReason}) and a
 * sentence for operators ({@code avDetail}).
 *
 * @param reason the dead-letter reason
 * @param detail why, for operators; may be null
 */
public record DeadLetter(DeadLetterReason reason, String detail) {

  public DeadLetter {
    Objects.requireNonNull(reason, "reason");
  }
}
