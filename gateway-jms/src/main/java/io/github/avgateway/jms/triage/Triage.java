package io.github.avgateway.jms.triage;

import io.github.avgateway.core.model.DeadLetterReason;
import jakarta.jms.Destination;

/** Where one request goes: a reply, a dead-letter, or back to the broker for later. */
public sealed interface Triage {

  /** Answer at {@code destination}. */
  record Reply(Destination destination) implements Triage {}

  /** Dead-letter with {@code reason}; {@code detail} tells operators why. */
  record DeadLetter(DeadLetterReason reason, String detail) implements Triage {}

  /** Roll back: the broker delivers it again after its redelivery delay. */
  record Retry(String why) implements Triage {}
}
