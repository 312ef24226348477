package io.github.avgateway.jms.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.model.MessageInfo;
import java.time.Duration;
import java.util.List;

/**
 * One scenario's run: its ledger, its key prefix (unique per run, so that replies and history of
 * other runs never count), and the load it sends through the shared {@link FaultClient}.
 */
final class FaultRun implements FaultDriver.Run {

  /** Longest wait for every confirmed request to be answered once the fault is healed. */
  static final Duration ANSWER_TIMEOUT = Duration.ofMinutes(2);

  /** Every tenth request of a mixed load bears EICAR. */
  private static final int EICAR_EVERY = 10;

  final FaultLedger ledger;
  final String prefix;
  private final FaultEnvironment env;
  private final FaultClient client;
  private int next;

  FaultRun(FaultEnvironment env, String scenario) {
    this(env, env.client, scenario);
  }

  /** A run whose requests go through {@code client} (to another broker than the rig's). */
  FaultRun(FaultEnvironment env, FaultClient client, String scenario) {
    this.env = env;
    this.client = client;
    this.ledger = new FaultLedger("jms/" + scenario);
    this.prefix = "fault-jms-" + scenario + "-" + System.currentTimeMillis() + "-";
    client.use(ledger);
  }

  /** A new key of this run. */
  @Override
  public String key() {
    return prefix + next++;
  }

  @Override
  public FaultLedger ledger() {
    return ledger;
  }

  @Override
  public int sent() {
    return next;
  }

  /** Sends {@code count} requests of the mixed load (clean, EICAR, zipped EICAR). */
  @Override
  public void mixed(int count) {
    for (int i = 0; i < count; i++) {
      String key = key();
      client.send(key, FaultPayloads.mixed(prefix, next, EICAR_EVERY));
    }
  }

  /** Sends one payload. */
  @Override
  public void send(Payload payload) {
    client.send(key(), payload);
  }

  /** Sends the message {@code build} makes, expecting {@code expected}. */
  void send(Expected expected, FaultClient.MessageBuilder build) {
    client.send(key(), expected, build);
  }

  /** Waits (bounded) until at least {@code count} requests of this run have an answer. */
  @Override
  public FaultRun awaitAnswered(long count) {
    await("answers of " + ledger.scenario())
        .atMost(ANSWER_TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> ledger.answered() >= count);
    return this;
  }

  /** Waits until nothing is answered for {@code quiet} (bounded): the gateway is stuck. */
  void awaitNoProgress(Duration quiet) {
    long[] last = {-1};
    await("no progress in " + ledger.scenario())
        .atMost(quiet.multipliedBy(10))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> {
          long now = ledger.answered();
          boolean same = now == last[0];
          last[0] = now;
          return same;
        });
    await().atMost(quiet.multipliedBy(10)).during(quiet).until(() -> ledger.answered() == last[0]);
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
