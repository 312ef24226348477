package io.github.avgateway.core.fault;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.util.Objects;

/**
 * What one request of a fault run should get, and whether its content bears EICAR (the checker
 * counts such a request answered CLEAN anywhere as unsafe, whatever was expected).
 *
 * @param verdict the verdict its reply (or dead-letter, or history document) should carry
 * @param reason the UNSCANNABLE / ERROR reason expected with it, or null for any
 * @param deadLetter the dead-letter reason expected instead of a reply, or null when a reply is
 *     expected
 * @param eicarBearing true when the content holds EICAR (plain, zipped, nested or oversized)
 */
public record Expected(
    Verdict verdict, Reason reason, DeadLetterReason deadLetter, boolean eicarBearing) {

  public Expected {
    Objects.requireNonNull(verdict, "verdict");
  }

  /** A harmless file: a CLEAN reply. */
  public static Expected clean() {
    return new Expected(Verdict.CLEAN, null, null, false);
  }

  /** EICAR (or a file carrying it): an INFECTED reply. */
  public static Expected infected() {
    return new Expected(Verdict.INFECTED, null, null, true);
  }

  /** An UNSCANNABLE reply with {@code reason} ({@code TOO_LARGE}, {@code LIMITS_EXCEEDED}, …). */
  public static Expected unscannable(Reason reason, boolean eicarBearing) {
    return new Expected(Verdict.UNSCANNABLE, reason, null, eicarBearing);
  }

  /** A dead-letter with {@code deadLetter} as its reason, the recorded verdict {@code verdict}. */
  public static Expected deadLetter(
      DeadLetterReason deadLetter, Verdict verdict, boolean eicarBearing) {
    return new Expected(verdict, null, deadLetter, eicarBearing);
  }

  /** Whether {@code outcome} is what this expectation describes. */
  public boolean matches(Outcome outcome) {
    boolean sameKind =
        deadLetter == null
            ? outcome instanceof Outcome.Reply
            : outcome instanceof Outcome.DeadLetter dead && dead.deadLetterReason() == deadLetter;
    return sameKind
        && verdict == outcome.verdict()
        && (reason == null || reason == outcome.reason());
  }
}
