package io.github.avgateway.amqp.fault;

import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.FaultTimeline;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One scenario of the cluster faults on an {@link AmqpFaultRig}: a steady load through the rig's
 * callers with its faults as timed events ({@link FaultTimeline}), and the end of the run: every
 * confirmed request answered (bounded; what is not, and the queues, printed if not), how the rate
 * went through each event printed, history read, the ledger's counts printed and asserted.
 */
final class ClusterRun {

  final FaultRun run;
  final FaultTimeline timeline;
  private final AmqpFaultRig rig;

  /** Starts the load of {@code scenario} at once. */
  ClusterRun(AmqpFaultRig rig, String scenario) {
    this.rig = rig;
    run = new FaultRun(rig, scenario);
    timeline =
        new FaultTimeline(
            run.ledger, run.prefix, (key, payload) -> rig.client.send(run.ledger, key, payload));
  }

  /** Waits (bounded) until the load has been served at its rate for a while. */
  ClusterRun awaitSteady() {
    timeline.awaitSteady();
    return this;
  }

  /**
   * Stops the load, waits for every answer, prints how the rate went through each event, then the
   * ledger's counts, and asserts them.
   */
  FaultReport finish(Duplicates duplicates) throws InterruptedException {
    timeline.stop();
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
    timeline.printRecoveries();
    System.out.println(
        "FAULT "
            + run.ledger.scenario()
            + ": callers' requests the broker did not confirm (all runs so far): "
            + rig.client.nacks());
    return run.finish(duplicates);
  }
}
