package io.github.avgateway.amqp.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import java.time.Duration;

/**
 * One scenario's load on an {@link AmqpFaultRig}: a ledger, a key prefix, a mixed load sent at once
 * (every tenth request EICAR, plain or zipped), and the end of the run: every confirmed request
 * answered (bounded), history read, counts printed and asserted.
 */
final class FaultRun implements FaultDriver.Run {

  static final Duration ANSWER_BOUND = Duration.ofSeconds(150);
  static final Duration HISTORY_BOUND = Duration.ofSeconds(30);

  final AmqpFaultRig rig;
  final FaultLedger ledger;
  final String prefix;
  private int sent;

  FaultRun(AmqpFaultRig rig, String scenario) {
    this.rig = rig;
    this.ledger = rig.ledger(scenario);
    this.prefix = rig.run(scenario);
  }

  /** Sends {@code count} more requests of the mixed load. */
  FaultRun load(int count) {
    for (int i = 0; i < count; i++) {
      int index = sent++;
      rig.client.send(ledger, prefix + index, FaultPayloads.mixed(prefix, index, 10));
    }
    return this;
  }

  @Override
  public void send(Payload payload) {
    rig.client.send(ledger, key(), payload);
  }

  @Override
  public String key() {
    return prefix + sent++;
  }

  @Override
  public void mixed(int count) {
    load(count);
  }

  @Override
  public FaultLedger ledger() {
    return ledger;
  }

  /** Requests sent so far. */
  @Override
  public int sent() {
    return sent;
  }

  /** Waits (bounded) until at least {@code count} requests are answered. */
  @Override
  public FaultRun awaitAnswered(long count) {
    await(ledger.scenario() + ": " + count + " answers")
        .atMost(ANSWER_BOUND)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> ledger.answered() >= count);
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
