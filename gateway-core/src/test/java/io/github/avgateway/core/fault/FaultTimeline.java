package io.github.avgateway.core.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario under a steady load ({@link SteadyLoad}) with its faults and heals as timed events:
 * waits until the load is served at its rate, notes each event, waits (bounded, failing after)
 * until the rate is back after one, and at the end prints for each event how the answer rate went
 * through it ({@link RateRecovery}), up to the next event or the end of the load.
 * Transport-neutral: the scenario's client sends, the ledger counts.
 */
public final class FaultTimeline {

  /** Requests a second of every steady load ({@code fault.cluster.rate}, 40 unless set). */
  public static final int PER_SECOND = Integer.getInteger("fault.cluster.rate", 40);

  /** How long the load must have been served at its rate before a fault, and the baseline. */
  public static final Duration BASELINE = Duration.ofSeconds(10);

  private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(120);
  private static final Duration RECOVERY_WINDOW = Duration.ofSeconds(3);

  private final FaultLedger ledger;
  private final SteadyLoad load;
  private final List<Event> events = new ArrayList<>();
  private long end;

  /** Something the scenario did, and when. */
  private record Event(String what, long nanos) {}

  /**
   * Starts the load at once: request {@code i} keyed {@code prefix + i}, sent by {@code sender}.
   */
  public FaultTimeline(FaultLedger ledger, String prefix, SteadyLoad.Sender sender) {
    this.ledger = ledger;
    this.load = SteadyLoad.start(prefix, PER_SECOND, sender);
  }

  /** Waits (bounded) until the load has been answered at its rate for {@link #BASELINE}. */
  public FaultTimeline awaitSteady() {
    RateRecovery.awaitRate(ledger, PER_SECOND, BASELINE, BASELINE.multipliedBy(6));
    return this;
  }

  /** Notes {@code what} as happening now. */
  public void event(String what) {
    events.add(new Event(what, System.nanoTime()));
    System.out.println("FAULT " + ledger.scenario() + ": " + what);
  }

  /**
   * Waits (at most two minutes; failing after) until the answers of the last three seconds came at
   * 90 % of the load's rate or more.
   */
  public void awaitRecovered() {
    RateRecovery.awaitRate(ledger, PER_SECOND, RECOVERY_WINDOW, RECOVERY_LIMIT);
  }

  /** Stops the load; the last event's measure ends here. */
  public void stop() throws InterruptedException {
    load.stop();
    end = System.nanoTime();
  }

  /** Prints how the rate went through each event (call once the answers are in). */
  public List<RateRecovery> printRecoveries() {
    List<RateRecovery> all = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      long until = i + 1 < events.size() ? events.get(i + 1).nanos() : end;
      Event event = events.get(i);
      all.add(RateRecovery.measure(ledger, event.what(), event.nanos(), BASELINE, until).print());
    }
    return all;
  }
}
