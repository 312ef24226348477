package io.github.avgateway.core.fault;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;

/** One answer a fault run observed for a request: a reply, or a dead-letter. */
public sealed interface Outcome {

  /** The verdict it carried, or null when it carried none (a broker's own dead-letter). */
  Verdict verdict();

  /** The UNSCANNABLE / ERROR reason it carried, or null. */
  Reason reason();

  /**
   * A reply on the caller's reply destination.
   *
   * @param verdict the {@code avVerdict} of the reply
   * @param reason its {@code avReason}, or null
   */
  record Reply(Verdict verdict, Reason reason) implements Outcome {}

  /**
   * A message on the gateway's dead-letter destination.
   *
   * @param deadLetterReason the gateway's {@code avReason}, or null when the broker dead-lettered
   *     it itself (RabbitMQ's own delivery limit): such a dead-letter has no history document by
   *     design
   * @param verdict the {@code avVerdict} it carried, or null
   * @param reason the ERROR / UNSCANNABLE reason of that verdict, or null
   */
  record DeadLetter(DeadLetterReason deadLetterReason, Verdict verdict, Reason reason)
      implements Outcome {}
}
