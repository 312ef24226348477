package io.github.avgateway.amqp.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 8, scenarios 7–12 on AMQP: clamd and Solr fail under load behind one gateway JVM. Every
 * scenario: lost = 0, unsafe = 0, inconsistent = 0, one history document per request, and (the
 * product's pause guarantee) no request answered twice and none dead-lettered: a pause holds the
 * requests in flight instead of returning them to the queue. A clamd fault pauses intake; a Solr
 * fault does not (history travels through the broker): only the history indexer holds and backs
 * off, and catches up once Solr is back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AmqpDependencyFaultIT {

  private static final String PAUSED = "pausing AMQP intake";
  private static final String RESUMED = "resuming AMQP intake";
  private static final String INDEXER_PAUSED = "history store refuses; indexing paused";
  private static final String INDEXER_RESUMED = "history store accepts again; indexing resumed";
  private AmqpFaultRig rig;
  private JavaProcess gateway;

  @BeforeAll
  void start() throws Exception {
    rig = new AmqpFaultRig("dependency");
    gateway = rig.startGateway("gw-dep");
  }

  @AfterAll
  void stop() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  @Test
  @Order(7)
  void clamdStoppedAndStarted() throws Exception {
    outage("clamd-stop", rig.clamd::stop, rig.clamd::launch);
  }

  /** Stops a dependency under load, waits until the gateway paused, starts it again. */
  private void outage(String scenario, Step stop, Step start) throws Exception {
    FaultRun run = new FaultRun(rig, scenario).load(400).awaitAnswered(60);
    long pauses = gateway.occurrences(PAUSED);
    long resumes = gateway.occurrences(RESUMED);
    stop.run();
    try {
      awaitLog(PAUSED, pauses);
      run.load(50);
    } finally {
      start.run();
    }
    awaitLog(RESUMED, resumes);
    run.finish(Duplicates.FORBIDDEN).assertAsExpected();
  }

  /** A step that starts or stops a process. */
  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  @Test
  @Order(8)
  void clamdFrozenThenResumed() throws Exception {
    FaultRun run = new FaultRun(rig, "clamd-sigstop").load(400).awaitAnswered(60);
    long pauses = gateway.occurrences(PAUSED);
    rig.clamd.freeze();
    try {
      awaitLog(PAUSED, pauses);
    } finally {
      rig.clamd.thaw();
    }
    FaultReport report = run.finish(Duplicates.FORBIDDEN);
    assertThat(report.deadLettered()).isZero();
  }

  @Test
  @Order(9)
  void clamdConnectionsCutMidStream() {
    FaultRun run = new FaultRun(rig, "clamd-cut").load(400).awaitAnswered(40);
    rig.clamdProxy.cutAll();
    run.awaitAnswered(120);
    rig.clamdProxy.cutAll();
    run.awaitAnswered(200);
    rig.clamdProxy.cutAll();
    run.finish(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  @Order(10)
  void clamdReloadUnderLoad() {
    FaultRun run = new FaultRun(rig, "clamd-reload").load(400).awaitAnswered(40);
    assertThat(rig.clamd.reload()).isEqualTo("RELOADING");
    run.awaitAnswered(150);
    assertThat(rig.clamd.reload()).isEqualTo("RELOADING");
    run.finish(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  @Order(11)
  void solrStoppedScanningContinuesAndHistoryCatchesUp() throws Exception {
    solrFault("solr-stop", rig.solr::stop, rig.solr::restart);
  }

  @Test
  @Order(12)
  void solrSlowSlowsNoScan() throws Exception {
    // Seconds per exchange: Solr slower than the gateway's request timeout (4 s), so the indexer
    // holds its messages and backs off while the scan path goes on.
    solrFault(
        "solr-slow",
        () -> rig.solrProxy.latency(Duration.ofSeconds(2)),
        () -> rig.solrProxy.latency(Duration.ZERO));
  }

  /**
   * Solr is not on the scan path: with it stopped or slow under load every request is answered and
   * intake never pauses; the history indexer backs off (IndexerStatus down, logged once) and, once
   * Solr is back, resumes and drains the backlog, one document per request.
   */
  private void solrFault(String scenario, Step fault, Step cure) throws Exception {
    FaultRun run = new FaultRun(rig, scenario).load(150).awaitAnswered(20);
    long pauses = gateway.occurrences(PAUSED);
    long backoffs = gateway.occurrences(INDEXER_PAUSED);
    long resumes = gateway.occurrences(INDEXER_RESUMED);
    fault.run();
    try {
      run.load(150).awaitAnswered(300);
      awaitLog(INDEXER_PAUSED, backoffs);
    } finally {
      cure.run();
    }
    awaitLog(INDEXER_RESUMED, resumes);
    run.finish(Duplicates.FORBIDDEN).assertAsExpected();
    assertThat(gateway.occurrences(PAUSED))
        .as("intake pauses during the Solr fault")
        .isEqualTo(pauses);
  }

  private void awaitLog(String text, long before) {
    await("'" + text + "' logged by the gateway")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> gateway.occurrences(text) > before);
  }
}
