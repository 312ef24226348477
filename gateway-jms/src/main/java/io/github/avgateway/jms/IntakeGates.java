package io.github.avgateway.jms;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All intake gates of the application as one: Down while any of them is Down (with the first one's
 * reason), Up otherwise, and Up when there are none. Logs each change once, whichever consumer
 * noticed it. Thread-safe.
 */
public final class IntakeGates implements IntakeGate {

  private static final Logger log = LoggerFactory.getLogger(IntakeGates.class);

  private final List<IntakeGate> gates;
  private final AtomicReference<Availability> last = new AtomicReference<>(Availability.up());

  public IntakeGates(List<IntakeGate> gates) {
    this.gates = List.copyOf(gates);
  }

  @Override
  public Availability intake() {
    Availability now = Availability.up();
    for (IntakeGate gate : gates) {
      Availability state = gate.intake();
      if (state instanceof Availability.Down) {
        now = state;
        break;
      }
    }
    Availability before = last.getAndSet(now);
    if (!sameKind(before, now)) {
      switch (now) {
        case Availability.Down down ->
            log.warn("JMS intake paused, requests stay in the broker: {}", down.why());
        case Availability.Up up -> log.info("JMS intake resumed");
      }
    }
    return now;
  }

  private static boolean sameKind(Availability a, Availability b) {
    return a.getClass() == b.getClass();
  }
}
