package io.github.avgateway.core.testing;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;

/** An intake gate a test opens and closes, as clamd or Solr going away and coming back would. */
public final class SwitchableGate implements IntakeGate {

  private volatile Availability state = Availability.up();

  @Override
  public Availability intake() {
    return state;
  }

  /** Closes intake, with {@code why} as the reason. */
  public void down(String why) {
    state = Availability.down(why);
  }

  /** Opens intake again. */
  public void up() {
    state = Availability.up();
  }
}
