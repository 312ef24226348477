package io.github.avgateway.amqp.fault;

import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.RateRecovery;
import io.github.avgateway.core.fault.SteadyLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One scenario of the cluster faults: a steady load of {@link #PER_SECOND} requests a second
 * through the rig's callers, its faults and heals as timed events, and the end of the run: every
 * confirmed request answered (bounded), history read, the ledger's counts printed and asserted, and
 * for each event how the answer rate went through it ({@link RateRecovery}, printed before the
 * counts are asserted).
 */
final class ClusterRun {

  static final int PER_SECOND = Integer.getInteger("fault.cluster.rate", 40);
  static final Duration BASELINE = Duration.ofSeconds(10);
  private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(120);
  private static final Duration RECOVERY_WINDOW = Duration.ofSeconds(3);

  final FaultRun run;
  private final AmqpFaultRig rig;
  private final SteadyLoad load;
  private final List<Event> events = new ArrayList<>();

  /** Something the scenario did, and when. */
  private record Event(String what, long nanos) {}

  /** Starts the load of {@code scenario} at once. */
  ClusterRun(AmqpFaultRig rig, String scenario) {
    this.rig = rig;
    run = new FaultRun(rig, scenario);
    load =
        SteadyLoad.start(
            run.prefix, PER_SECOND, (key, payload) -> rig.client.send(run.ledger, key, payload));
  }

  /** Waits (bounded) until the load has been answered at its rate for {@link #BASELINE}. */
  ClusterRun awaitSteady() {
    RateRecovery.awaitRate(run.ledger, PER_SECOND, BASELINE, BASELINE.multipliedBy(6));
    return this;
  }

  /** Notes {@code what} as happening now. */
  void event(String what) {
    events.add(new Event(what, System.nanoTime()));
    System.out.println("FAULT " + run.ledger.scenario() + ": " + what);
  }

  /**
   * Waits (at most two minutes; failing after) until the answers of the last three seconds came at
   * 90 % of the load's rate or more.
   */
  void awaitRecovered() {
    RateRecovery.awaitRate(run.ledger, PER_SECOND, RECOVERY_WINDOW, RECOVERY_LIMIT);
  }

  /**
   * Stops the load, waits for every answer, prints how the rate went through each event, then the
   * ledger's counts, and asserts them.
   */
  FaultReport finish(Duplicates duplicates) throws InterruptedException {
    load.stop();
    long end = System.nanoTime();
    try {
      FaultClient.awaitAnswered(run.ledger, FaultRun.ANSWER_BOUND);
    } catch (ConditionTimeoutException e) {
      List<String> unanswered = run.ledger.unansweredKeys();
      System.out.println(
          "FAULT "
              + run.ledger.scenario()
              + ": "
              + unanswered.size()
              + " unanswered, e.g. "
              + unanswered.subList(0, Math.min(10, unanswered.size()))
              + "; queues:\n"
              + rig.queueDepths());
      throw e;
    }
    for (int i = 0; i < events.size(); i++) {
      long until = i + 1 < events.size() ? events.get(i + 1).nanos() : end;
      Event event = events.get(i);
      RateRecovery.measure(run.ledger, event.what(), event.nanos(), BASELINE, until).print();
    }
    return run.finish(duplicates);
  }
}
