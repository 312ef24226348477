package io.github.avgateway.core.contract;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import java.time.Duration;

/**
 * The part of a {@link FaultDriver.Run} that is the same on every transport: a ledger, a key prefix
 * no other run shares, request {@code i} keyed {@code prefix + i}, the mixed load (every tenth
 * request EICAR, plain or zipped) and the bounded wait for answers. A transport's run adds how one
 * request is sent and how the run ends.
 */
public abstract class KeyedFaultRun implements FaultDriver.Run {

  /** Every tenth request of a mixed load bears EICAR. */
  public static final int EICAR_EVERY = 10;

  /** What was sent, what came back, what history holds. */
  public final FaultLedger ledger;

  /** The key prefix of this run's requests (their correlation ids). */
  public final String prefix;

  private final Duration answerBound;
  private int next;

  /**
   * @param answerBound the longest {@link #awaitAnswered} waits
   */
  protected KeyedFaultRun(FaultLedger ledger, String prefix, Duration answerBound) {
    this.ledger = ledger;
    this.prefix = prefix;
    this.answerBound = answerBound;
  }

  /** Sends one request keyed {@code key} carrying {@code payload}, recorded in the ledger. */
  protected abstract void send(String key, Payload payload);

  @Override
  public final FaultLedger ledger() {
    return ledger;
  }

  @Override
  public final String key() {
    return prefix + next++;
  }

  @Override
  public final int sent() {
    return next;
  }

  @Override
  public final void mixed(int count) {
    for (int i = 0; i < count; i++) {
      int index = next;
      send(key(), FaultPayloads.mixed(prefix, index, EICAR_EVERY));
    }
  }

  @Override
  public final void send(Payload payload) {
    send(key(), payload);
  }

  @Override
  public KeyedFaultRun awaitAnswered(long count) {
    await(ledger.scenario() + ": " + count + " answered")
        .atMost(answerBound)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> ledger.answered() >= count);
    return this;
  }
}
