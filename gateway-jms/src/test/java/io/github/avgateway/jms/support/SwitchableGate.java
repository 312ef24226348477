package io.github.avgateway.jms.support;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;

/** An intake gate a test opens and closes. */
public final class SwitchableGate implements IntakeGate {

  private volatile Availability state = Availability.up();

  public void up() {
    state = Availability.up();
  }

  public void down(String why) {
    state = Availability.down(why);
  }

  @Override
  public Availability intake() {
    return state;
  }
}
