package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.FaultTimeline;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.fault.SteadyLoad;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.solr.StandaloneSolr;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 38: the JMS gateway in external mode on a shared-store Artemis primary/backup pair ({@link
 * ArtemisPair}) with an HA URL, two gateway JVMs serving the request queue and a clean-pipe, under
 * a steady mixed load: the primary {@code kill -9}'d (the backup takes over) and started again
 * (fail-back); the primary killed while the consumers hold open transactions (scans slowed, so that
 * every batch stays open half a second or more), on the request queue and on the pipe's inbox. Each
 * run must lose nothing confirmed, answer nothing EICAR-bearing CLEAN, answer each request once (a
 * transaction the failover rolled back is redone: its requests come back and are answered, their
 * history marked redelivered; callers' sends that failed in the failover are sent again with the
 * same duplicate id, which the broker drops if the first arrived) and keep one history document per
 * request; how long answers paused and when the rate was back is printed per event. Behind the
 * {@code cluster} tag (docs/reliability.md, "Clusters").
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JmsHaFaultIT {

  /** The gateways' HA settings: fail over to the backup, and reconnect for ever to whichever. */
  static final String GATEWAY_HA =
      "ha=true&reconnectAttempts=-1&retryInterval=100&retryIntervalMultiplier=2"
          + "&maxRetryInterval=1000&callFailoverTimeout=10000";

  private static final String READY = "av-gateway JMS ready";
  private static final int SEND_ATTEMPTS = 5;
  private static final Duration SLOW_SCAN = Duration.ofMillis(500);

  /** Requests sent before the failover that the callers send again to the backup. */
  private static final int COPIES = 20;

  private FaultRig rig;
  private final List<JavaProcess> gateways = new ArrayList<>();
  private FaultClient client;
  private PipeFaultClient pipe;
  private SolrClient solr;
  private HistoryReader history;

  @BeforeAll
  void start() throws Exception {
    rig = FaultRig.startPair();
    String url = FaultRig.withParams(rig.artemisUrl(), GATEWAY_HA);
    for (String name : List.of("gw-ha-a", "gw-ha-b")) {
      JavaProcess gateway = rig.startGateway(name, gatewayArgs(name, url));
      gateway.awaitLog(READY, 1, Duration.ofMinutes(2));
      gateways.add(gateway);
    }
    String callers = FaultRig.withParams(rig.artemisUrl(), "ha=true");
    client = new FaultClient(callers, ArtemisBrokerMain.REPLIES);
    pipe = new PipeFaultClient(callers);
    solr = rig.solr.client(Duration.ofSeconds(10));
    history = new HistoryReader(solr, StandaloneSolr.CORE);
  }

  private List<String> gatewayArgs(String name, String url) {
    List<String> args = new ArrayList<>(rig.gatewayArgs(name, url, 2));
    args.add("--avgateway.jms.pipes[0].inbox=" + ArtemisBrokerMain.PIPE_INBOX);
    args.add("--avgateway.jms.pipes[0].clean=" + ArtemisBrokerMain.PIPE_CLEAN);
    args.add("--avgateway.jms.pipes[0].quarantine=" + ArtemisBrokerMain.PIPE_QUARANTINE);
    args.add("--avgateway.jms.pipes[0].rejected=" + ArtemisBrokerMain.PIPE_REJECTED);
    return args;
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable part : List.<AutoCloseable>of(pipe, client, solr)) {
      if (part != null) {
        part.close();
      }
    }
    for (JavaProcess gateway : gateways) {
      gateway.close();
    }
    if (rig != null) {
      rig.close();
    }
  }

  @Test
  @Order(1)
  void primaryKilledUnderLoadThenFailBack() throws Exception {
    Run run = requests("primary-kill-9");
    run.timeline.event("kill -9 of the primary (pid " + rig.pair.primaryPid() + ")");
    rig.pair.killPrimary();
    run.timeline.awaitRecovered();
    long dropped = rig.pair.duplicatesDropped();
    for (int i = 0; i < COPIES; i++) {
      client.sendCopy(run.prefix + i, FaultPayloads.mixed(run.prefix, i, 10));
    }
    long droppedCopies = rig.pair.duplicatesDropped() - dropped;
    failBack(run.timeline);
    run.finish(Duplicates.FORBIDDEN);
    System.out.println(
        "FAULT "
            + run.ledger.scenario()
            + ": "
            + COPIES
            + " copies of requests answered before the"
            + " failover sent to the backup; messages it dropped as duplicates meanwhile: "
            + droppedCopies
            + "; dropped in the whole run: "
            + rig.pair.duplicatesDropped());
    assertThat(droppedCopies)
        .as("copies of requests answered before the failover, dropped by the backup")
        .isGreaterThanOrEqualTo(COPIES);
  }

  @Test
  @Order(2)
  void primaryKilledWhileConsumersHoldOpenTransactions() throws Exception {
    Run run = requests("primary-kill-9-mid-transaction");
    long held = killMidTransaction(run.timeline, ArtemisBrokerMain.REQUESTS);
    failBack(run.timeline);
    run.finish(Duplicates.FORBIDDEN);
    assertThat(run.redelivered())
        .as("history documents marked redelivered (the transactions open at the kill)")
        .isGreaterThanOrEqualTo(held);
  }

  @Test
  @Order(3)
  void primaryKilledWhilePipeConsumersHoldOpenTransactions() throws Exception {
    FaultLedger ledger = new FaultLedger("jms/ha-pipe-primary-kill-9-mid-transaction");
    String prefix = prefix(ledger);
    pipe.use(ledger);
    Run run = new Run(ledger, prefix, pipe::send);
    long held = killMidTransaction(run.timeline, ArtemisBrokerMain.PIPE_INBOX);
    failBack(run.timeline);
    run.finish(Duplicates.FORBIDDEN);
    PipeChecks checks = new PipeChecks(pipe);
    checks.print(ledger, history.documents(prefix));
    checks.assertHolds(ledger, history.documents(prefix));
    assertThat(run.redelivered())
        .as("history documents marked redelivered")
        .isGreaterThanOrEqualTo(held);
  }

  /**
   * Slows every scan, waits until the broker counts messages of {@code queue} delivered and not
   * committed (an open transaction), kills the primary at once, and returns how many it counted.
   */
  private long killMidTransaction(FaultTimeline timeline, String queue) throws Exception {
    rig.clamdProxy.latencyToTarget(SLOW_SCAN);
    long held;
    try (BrokerQueues queues = new BrokerQueues(rig.artemisUrl())) {
      long[] seen = {0};
      await("messages of " + queue + " in an open transaction")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> (seen[0] = queues.deliveringCount(queue)) > 0);
      held = seen[0];
      timeline.event(
          "kill -9 of the primary with " + held + " messages of " + queue + " uncommitted");
      rig.pair.killPrimary();
    } finally {
      rig.clamdProxy.latencyToTarget(Duration.ZERO);
    }
    timeline.awaitRecovered();
    return held;
  }

  private void failBack(FaultTimeline timeline) throws Exception {
    timeline.event("the old primary started again (fail-back)");
    rig.pair.failBack();
    timeline.awaitRecovered();
  }

  private Run requests(String scenario) {
    FaultLedger ledger = new FaultLedger("jms/ha-" + scenario);
    client.use(ledger);
    return new Run(
        ledger,
        prefix(ledger),
        (key, payload) -> client.sendUntilConfirmed(key, payload, SEND_ATTEMPTS));
  }

  private static String prefix(FaultLedger ledger) {
    return "fault-" + ledger.scenario().replace('/', '-') + "-" + System.currentTimeMillis() + "-";
  }

  /** One row: its ledger, its steady load and events, and its end. */
  private final class Run {
    final FaultLedger ledger;
    final String prefix;
    final FaultTimeline timeline;

    Run(FaultLedger ledger, String prefix, SteadyLoad.Sender sender) {
      this.ledger = ledger;
      this.prefix = prefix;
      this.timeline = new FaultTimeline(ledger, prefix, sender).awaitSteady();
    }

    /** Stops the load; waits for every answer and its history; prints the rates and counts. */
    FaultReport finish(Duplicates duplicates) throws InterruptedException {
      timeline.stop();
      FaultReport report = history.finish(prefix, ledger, FaultRun.ANSWER_TIMEOUT);
      timeline.printRecoveries();
      System.out.println(
          "FAULT "
              + ledger.scenario()
              + ": callers' sends made again after a failed send: "
              + client.sentAgain()
              + " (all runs so far); redelivered history documents="
              + redelivered());
      return report.assertHolds(duplicates).assertAsExpected();
    }

    long redelivered() {
      return history.documents(prefix).stream().filter(MessageInfo::redelivered).count();
    }
  }
}
