package io.github.avgateway.core.testing;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.util.concurrent.atomic.AtomicLong;

/** An intake gate a test opens and closes, as clamd or Solr going away and coming back would. */
public final class SwitchableGate implements IntakeGate {

  private volatile Availability state = Availability.up();
  private final AtomicLong closings = new AtomicLong();

  @Override
  public Availability intake() {
    return state;
  }

  @Override
  public long closings() {
    return closings.get();
  }

  /** Closes intake, with {@code why} as the reason. */
  public void down(String why) {
    if (state instanceof Availability.Up) {
      closings.incrementAndGet();
    }
    state = Availability.down(why);
  }

  /** Closes intake and opens it again at once, as clamd away for a moment would. */
  public void blink(String why) {
    down(why);
    up();
  }

  /** Opens intake again. */
  public void up() {
    state = Availability.up();
  }
}
