package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.solr.SolrHistoryRecorder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Solr faults under load (issue 8, scenarios 11 and 12). A batch caught by the outage is held open
 * (no delivery attempt spent), so no request is answered twice and none is lost.
 */
class JmsSolrFaultIT extends AbstractJmsFaultIT {

  /**
   * The most documents the fault gateway may have outstanding: consumers × batch size, twice (a
   * batch records its documents again once when history fails while the gate is up).
   */
  private static final int MOST_IN_FLIGHT = 2 * 4 * 16;

  @Test
  void solrStoppedAndStarted() throws Exception {
    outageUnderLoad("solr-stop-start", env.rig.solr::stop, env.rig.solr::restart)
        .assertHolds(Duplicates.FORBIDDEN)
        .assertAsExpected();
  }

  @Test
  void solrSlowKeepsMemoryBoundedAndPushesBack() {
    SolrHistoryRecorder recorder = env.bean(SolrHistoryRecorder.class);
    FaultRun run = new FaultRun(env, "solr-slow");
    run.mixed(100);
    run.awaitAnswered(10);
    AtomicInteger mostQueued = new AtomicInteger();
    env.rig.solrProxy.latency(Duration.ofSeconds(2));
    try {
      run.mixed(100);
      long answered = run.ledger.answered();
      await("the gateway slowed down by Solr")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> {
            mostQueued.accumulateAndGet(recorder.queued(), Math::max);
            return env.intakeDown() || run.ledger.answered() - answered > 150;
          });
    } finally {
      env.rig.solrProxy.latency(Duration.ZERO);
    }
    System.out.println("FAULT jms/solr-slow: most documents queued for Solr = " + mostQueued);
    assertThat(mostQueued.get())
        .as("documents queued for Solr")
        .isLessThanOrEqualTo(MOST_IN_FLIGHT);
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }
}
