package io.github.avgateway.load.harness;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.fault.FaultClient;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.SteadyLoad;
import java.time.Duration;
import java.util.List;

/**
 * The scale-out topology under faults (issue 10): 2 gateways on 2 clamd and a 2-node SolrCloud (2
 * shards x 2 replicas), a steady mixed load (every tenth request EICAR, plain or zipped), and in
 * turn: one gateway killed (SIGKILL) and started again, one clamd killed and started again, one
 * Solr node killed and started again, each after the load has gone on for a while. The fault
 * suite's own client and checker ({@link FaultClient}, {@link FaultLedger}) count the outcome: lost
 * = 0, unsafe CLEAN = 0, one history document per request, repeats only where a redelivery explains
 * them. Bounded: the load stops after the last step, answers and history are awaited for at most a
 * few minutes.
 */
final class ScaleFault {

  private static final Duration STEP = Duration.ofSeconds(120);
  private static final Duration ANSWERS = Duration.ofSeconds(180);
  private static final int PER_SECOND = Integer.getInteger("scale.fault.rate", 40);
  private static final int BETWEEN = Integer.getInteger("scale.fault.between", 300);

  private final Options options;
  private final Report report;
  private final ScaleRig rig;

  ScaleFault(Options options, Report report, ScaleRig rig) {
    this.options = options;
    this.report = report;
    this.rig = rig;
  }

  /** Runs the faults under load; true when every guarantee held. */
  boolean run() throws Exception {
    List<String> extra =
        List.of(
            "--avgateway.clamd.probe-interval=200ms",
            "--avgateway.solr.request-timeout=4s",
            "--avgateway.solr.batch.probe-interval=200ms",
            "--avgateway.amqp.confirm-timeout=4s");
    for (int i = 0; i < 2; i++) {
      rig.gateways.start(GatewayRuns.Kind.AMQP, 2, extra);
    }
    System.setProperty(
        "avgateway.fault.report-file", options.work().resolve("fault-reports.md").toString());
    FaultLedger ledger = new FaultLedger("scale-amqp/kill gateway, clamd, Solr node in turn");
    String prefix = "scale-fault-" + options.stamp() + "-";
    try (FaultClient client =
            new FaultClient(options.rabbitPort(), ScaleRig.QUEUE, ScaleRig.DEAD_LETTERS);
        ScaleHistory history = new ScaleHistory(rig.zkHost())) {
      client.use(ledger);
      try (SteadyLoad load =
          SteadyLoad.start(
              prefix, PER_SECOND, (key, payload) -> client.send(ledger, key, payload))) {
        faults(ledger, extra);
      }
      FaultClient.awaitAnswered(ledger, ANSWERS);
      history.collect(ledger, prefix, Duration.ofSeconds(60));
      FaultReport result = ledger.report().print();
      report.note("%s", result.line());
      try {
        result.assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY);
        return true;
      } catch (AssertionError e) {
        report.note("# guarantees broken: %s", e.getMessage());
        return false;
      }
    }
  }

  private void faults(FaultLedger ledger, List<String> extra) throws Exception {
    step(ledger, "load on 2 gateways, 2 clamd, 2 Solr nodes");
    rig.gateways.get(0).kill9();
    step(ledger, "gateway 0 killed (SIGKILL)");
    rig.gateways.restart(GatewayRuns.Kind.AMQP, 0, 2, extra);
    step(ledger, "gateway 0 started again");
    rig.killClamd(0);
    step(ledger, "clamd 0 killed (SIGKILL)");
    rig.startClamd(0);
    step(ledger, "clamd 0 started again");
    rig.killSolrNode(1);
    step(ledger, "Solr node 1 killed (SIGKILL)");
    rig.startSolrNode(1);
    step(ledger, "Solr node 1 started again");
  }

  /** Notes what just happened and waits (bounded) until {@link #BETWEEN} more answers came. */
  private void step(FaultLedger ledger, String what) {
    long target = ledger.answered() + BETWEEN;
    report.note(
        "# %s; answered so far %d, load average %s", what, ledger.answered(), Report.loadAverage());
    await(what + ": " + BETWEEN + " more answers")
        .atMost(STEP)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> ledger.answered() >= target);
  }
}
