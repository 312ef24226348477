package io.github.avgateway.jms.fault;

import io.github.avgateway.core.contract.KeyedFaultRun;
import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.model.MessageInfo;
import java.time.Duration;
import java.util.List;

/**
 * One scenario's run: its ledger, its key prefix (unique per run, so that replies and history of
 * other runs never count), and the load it sends through the shared {@link FaultClient}.
 */
final class FaultRun extends KeyedFaultRun {

  /** Longest wait for every confirmed request to be answered once the fault is healed. */
  static final Duration ANSWER_TIMEOUT = Duration.ofMinutes(2);

  private final FaultEnvironment env;
  private final FaultClient client;

  FaultRun(FaultEnvironment env, String scenario) {
    this(env, env.client, scenario);
  }

  /** A run whose requests go through {@code client} (to another broker than the rig's). */
  FaultRun(FaultEnvironment env, FaultClient client, String scenario) {
    super(
        new FaultLedger("jms/" + scenario),
        "fault-jms-" + scenario + "-" + System.currentTimeMillis() + "-",
        ANSWER_TIMEOUT);
    this.env = env;
    this.client = client;
    client.use(ledger);
  }

  @Override
  protected void send(String key, Payload payload) {
    client.send(key, payload);
  }

  /** Sends the message {@code build} makes, expecting {@code expected}. */
  void send(Expected expected, FaultClient.MessageBuilder build) {
    client.send(key(), expected, build);
  }

  @Override
  public FaultRun awaitAnswered(long count) {
    super.awaitAnswered(count);
    return this;
  }

  /** Waits for every answer and its history, prints the counts and returns them. */
  @Override
  public FaultReport finish() {
    FaultReport report = env.history.finish(prefix, ledger, ANSWER_TIMEOUT);
    System.out.println(
        "FAULT " + ledger.scenario() + ": redelivered history documents=" + redelivered());
    return report;
  }

  /** The history documents of this run that say the request was redelivered. */
  long redelivered() {
    return documents().stream().filter(MessageInfo::redelivered).count();
  }

  /** Every history document of this run. */
  List<MessageInfo> documents() {
    return env.history.documents(prefix);
  }
}
