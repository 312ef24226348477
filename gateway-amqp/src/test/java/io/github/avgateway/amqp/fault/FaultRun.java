package io.github.avgateway.amqp.fault;

import io.github.avgateway.core.contract.KeyedFaultRun;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import java.time.Duration;

/**
 * One scenario's load on an {@link AmqpFaultRig}: a ledger, a key prefix, a mixed load sent at once
 * (every tenth request EICAR, plain or zipped), and the end of the run: every confirmed request
 * answered (bounded), history read, counts printed and asserted.
 */
final class FaultRun extends KeyedFaultRun {

  static final Duration ANSWER_BOUND = Duration.ofSeconds(150);
  static final Duration HISTORY_BOUND = Duration.ofSeconds(30);

  final AmqpFaultRig rig;

  FaultRun(AmqpFaultRig rig, String scenario) {
    super(rig.ledger(scenario), rig.run(scenario), ANSWER_BOUND);
    this.rig = rig;
  }

  @Override
  protected void send(String key, Payload payload) {
    rig.client.send(ledger, key, payload);
  }

  /** Sends {@code count} more requests of the mixed load. */
  FaultRun load(int count) {
    mixed(count);
    return this;
  }

  @Override
  public FaultRun awaitAnswered(long count) {
    super.awaitAnswered(count);
    return this;
  }

  /** Waits for every answer and history document, prints the counts and asserts them. */
  FaultReport finish(Duplicates duplicates) {
    return finish().assertHolds(duplicates);
  }

  /** Waits for every answer and history document and prints the counts. */
  @Override
  public FaultReport finish() {
    FaultClient.awaitAnswered(ledger, ANSWER_BOUND);
    rig.collectHistory(ledger, prefix, HISTORY_BOUND);
    return ledger.report().print();
  }
}
