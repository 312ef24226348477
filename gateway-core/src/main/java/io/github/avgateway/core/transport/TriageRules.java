package io.github.avgateway.core.transport;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The triage rules both front-ends apply, stated once in the broker's terms of neither: the
 * delivery limit (a request delivered more often than it allows is dead-lettered unscanned as
 * {@code DELIVERY_LIMIT_EXCEEDED}: scanning a poison message again would only repeat whatever went
 * wrong) and the hold of a failed scan (ERROR {@code SCAN_FAILED} while the intake gate was down is
 * never answered as final: it is scanned again once clamd is back). Each transport counts
 * deliveries its broker's way (AMQP: a quorum queue's {@code x-delivery-count} plus one; JMS:
 * {@code JMSXDeliveryCount}) and keeps a held request its broker's way ({@link IntakeHold}). The
 * reply destination's rule is {@link ReplyDestinationRule}; what a request refused unscanned is
 * recorded as is {@link io.github.avgateway.core.model.DeadLetterReason#unscannedReason}. No I/O.
 */
public final class TriageRules {

  private TriageRules() {}

  /**
   * Empty while {@code delivery} is within the limit; else the {@code DELIVERY_LIMIT_EXCEEDED}
   * detail, a sentence for operators.
   *
   * @param delivery which delivery of the request this is (1 the first time)
   * @param maxDeliveries the most deliveries a request may have
   */
  public static Optional<String> overDeliveryLimit(long delivery, long maxDeliveries) {
    if (delivery <= maxDeliveries) {
      return Optional.empty();
    }
    return Optional.of(
        "delivered %d times, over the limit of %d".formatted(delivery, maxDeliveries));
  }

  /** True when clamd could not scan the request (ERROR {@code SCAN_FAILED}). */
  public static boolean scanFailed(ScanResult result) {
    return result.verdict() == Verdict.ERROR && result.reason() == Reason.SCAN_FAILED;
  }

  /**
   * Why the scan that ended in {@code result} is held (not final) rather than answered: it failed
   * while the intake gate was down, or closed during the scan; empty when the result is final.
   *
   * @param intakeSince the intake gate's state since before the scan, asked only when it failed
   */
  public static Optional<String> held(ScanResult result, Supplier<Availability> intakeSince) {
    if (scanFailed(result) && intakeSince.get() instanceof Availability.Down down) {
      return Optional.of(down.why());
    }
    return Optional.empty();
  }
}
