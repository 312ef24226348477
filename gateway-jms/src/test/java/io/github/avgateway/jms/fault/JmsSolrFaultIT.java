package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.history.IndexerStatus;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.solr.SolrHistoryRecorder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Solr faults under load. Solr is not on the scan path (history travels through the broker): while
 * it is stopped or slow, every request is answered and intake stays open; the history indexer holds
 * its poll and backs off, and once Solr is back it drains the backlog, one document per request.
 */
class JmsSolrFaultIT extends AbstractJmsFaultIT {

  /** The most documents the indexer holds for Solr: one poll of 64 batches of up to 16. */
  private static final int MOST_HELD = 64 * 16;

  @Test
  void solrStoppedScanningContinuesAndHistoryCatchesUp() throws Exception {
    FaultRun run = new FaultRun(env, "solr-stop-start");
    run.mixed(150);
    run.awaitAnswered(20);
    AtomicBoolean intakeWentDown = new AtomicBoolean();
    env.rig.solr.stop();
    try {
      run.mixed(150);
      await("every request answered while Solr is stopped")
          .atMost(FaultRun.ANSWER_TIMEOUT)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> {
            intakeWentDown.compareAndSet(false, env.intakeDown());
            return run.ledger.answered() >= 300;
          });
      await("the indexer backs off")
          .atMost(Duration.ofSeconds(30))
          .until(() -> env.bean(IndexerStatus.class).indexing() instanceof Availability.Down);
    } finally {
      env.rig.solr.restart();
    }
    assertThat(intakeWentDown).as("intake paused during the Solr outage").isFalse();
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
    await("the indexer resumes")
        .atMost(Duration.ofSeconds(30))
        .until(() -> env.bean(IndexerStatus.class).indexing() instanceof Availability.Up);
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
