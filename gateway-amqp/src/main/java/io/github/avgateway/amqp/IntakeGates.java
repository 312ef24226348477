package io.github.avgateway.amqp;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.util.List;

/** Combines intake gates: down when any of them is down (with the first one's reason). */
public final class IntakeGates {

  private IntakeGates() {}

  /** A gate that is up while every one of {@code gates} is up; always up for none. */
  public static IntakeGate allOf(List<IntakeGate> gates) {
    List<IntakeGate> copy = List.copyOf(gates);
    return () -> {
      for (IntakeGate gate : copy) {
        if (gate.intake() instanceof Availability.Down down) {
          return down;
        }
      }
      return Availability.up();
    };
  }
}
