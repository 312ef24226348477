package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.history.IndexerStatus;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.solr.SolrHistoryRecorder;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;

/**
 * Solr faults under load. Solr is not on the scan path (history travels through the broker): while
 * it is stopped (under a steady load, for {@code -Dfault.solr-outage}, 15 s unless set) or slow,
 * requests are answered at the rate they come and intake stays open; the history indexer holds its
 * poll and backs off, and once Solr is back it drains the backlog, one document per request
 * (FaultLedger).
 */
class JmsSolrFaultIT extends AbstractJmsFaultIT {

  /** The most documents the indexer holds for Solr: one poll of 64 batches of up to 16. */
  private static final int MOST_HELD = 64 * 16;

  /** Requests per second of the steady load: well under what the fault gateway answers. */
  private static final int STEADY_RATE = 40;

  private static final Duration BEFORE = Duration.ofSeconds(15);

  /**
   * How long Solr stays stopped: {@code -Dfault.solr-outage} (e.g. {@code 60s}, as the measured row
   * in docs/reliability.md), 15 s in the suite.
   */
  private static final Duration OUTAGE =
      DurationStyle.detectAndParse(System.getProperty("fault.solr-outage", "15s"));

  @Test
  void solrStoppedUnderSteadyLoadScanningGoesOnAtFullRate() throws Exception {
    FaultRun run = new FaultRun(env, "solr-outage-" + OUTAGE.toSeconds() + "s");
    run.mixed(50);
    run.awaitAnswered(50);
    AtomicBoolean intakeWentDown = new AtomicBoolean();
    double before = steady(run, BEFORE, intakeWentDown);
    env.rig.solr.stop();
    double during;
    try {
      during = steady(run, OUTAGE, intakeWentDown);
      assertThat(env.bean(IndexerStatus.class).indexing())
          .as("the indexer during the outage")
          .isInstanceOf(Availability.Down.class);
    } finally {
      env.rig.solr.restart();
    }
    System.out.printf(
        Locale.ROOT,
        "FAULT %s: answered %.1f/s before, %.1f/s during the %d s outage (%.0f %%)%n",
        run.ledger.scenario(),
        before,
        during,
        OUTAGE.toSeconds(),
        100 * during / before);
    assertThat(intakeWentDown).as("intake paused during the Solr outage").isFalse();
    assertThat(during)
        .as("answers per second during the outage")
        .isGreaterThanOrEqualTo(0.9 * before);
    long drainStarted = System.nanoTime();
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
    System.out.printf(
        Locale.ROOT,
        "FAULT %s: history complete %.1f s after Solr was back%n",
        run.ledger.scenario(),
        (System.nanoTime() - drainStarted) / 1e9);
    await("the indexer resumes")
        .atMost(Duration.ofSeconds(30))
        .until(() -> env.bean(IndexerStatus.class).indexing() instanceof Availability.Up);
  }

  /**
   * Sends {@link #STEADY_RATE} requests a second for {@code length}; returns the answers per second
   * counted over the same window (answers to earlier requests included, so a stall shows as a
   * drop).
   */
  private double steady(FaultRun run, Duration length, AtomicBoolean intakeWentDown) {
    long start = System.nanoTime();
    long answeredAtStart = run.ledger.answered();
    long tick = Duration.ofMillis(100).toNanos();
    for (long next = start; next < start + length.toNanos(); next += tick) {
      LockSupport.parkNanos(next - System.nanoTime());
      run.mixed(STEADY_RATE / 10);
      intakeWentDown.compareAndSet(false, env.intakeDown());
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return (run.ledger.answered() - answeredAtStart) / seconds;
  }

  @Test
  void solrSlowSlowsNoScanAndTheIndexerHoldsOneBoundedPoll() {
    SolrHistoryRecorder recorder = env.bean(SolrHistoryRecorder.class);
    FaultRun run = new FaultRun(env, "solr-slow");
    run.mixed(100);
    run.awaitAnswered(10);
    AtomicInteger mostQueued = new AtomicInteger();
    AtomicBoolean intakeWentDown = new AtomicBoolean();
    env.rig.solrProxy.latency(Duration.ofSeconds(2));
    try {
      run.mixed(200);
      await("every request answered while Solr is slow")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> {
            mostQueued.accumulateAndGet(recorder.queued(), Math::max);
            intakeWentDown.compareAndSet(false, env.intakeDown());
            return run.ledger.answered() >= 300;
          });
    } finally {
      env.rig.solrProxy.latency(Duration.ZERO);
    }
    System.out.println("FAULT jms/solr-slow: most documents queued for Solr = " + mostQueued);
    assertThat(intakeWentDown).as("intake paused while Solr was slow").isFalse();
    assertThat(mostQueued.get()).as("documents queued for Solr").isLessThanOrEqualTo(MOST_HELD);
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }
}
