package io.github.avgateway.core.pipeline;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All intake gates of an application as one: Down while any of them is Down (with the first one's
 * reason), Up otherwise, and Up when there are none. Logs each change once, whichever consumer
 * noticed it. Thread-safe. Not an {@link IntakeGate} itself, so that a bean of it can collect every
 * gate bean of the application; pass {@link #gate()} where one gate is expected.
 */
public final class IntakeGates {

  private static final Logger log = LoggerFactory.getLogger(IntakeGates.class);

  private final String name;
  private final List<IntakeGate> gates;
  private final AtomicReference<Availability> last = new AtomicReference<>(Availability.up());

  /**
   * @param name what the log lines call this intake, e.g. {@code JMS}
   * @param gates the gates to combine
   */
  public IntakeGates(String name, List<IntakeGate> gates) {
    this.name = name;
    this.gates = List.copyOf(gates);
  }

  /** The combined state; logs when it changed since the last call. */
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
    if (before.getClass() != now.getClass()) {
      switch (now) {
        case Availability.Down down ->
            log.warn("{} intake paused, requests stay in the broker: {}", name, down.why());
        case Availability.Up up -> log.info("{} intake resumed", name);
      }
    }
    return now;
  }

  /** How many times any of the gates closed so far (the sum of their counts). */
  public long closings() {
    long sum = 0;
    for (IntakeGate gate : gates) {
      sum += gate.closings();
    }
    return sum;
  }

  /** These gates as one {@link IntakeGate}: {@link #intake()} and {@link #closings()}. */
  public IntakeGate gate() {
    return new IntakeGate() {
      @Override
      public Availability intake() {
        return IntakeGates.this.intake();
      }

      @Override
      public long closings() {
        return IntakeGates.this.closings();
      }
    };
  }
}
