package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.model.MessageInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Clean-pipe mode under the faults of the fault suite that apply (issue 20): a gateway JVM with one
 * pipe on the external Artemis ({@code kill -9}'d mid-batch and started again), Artemis itself
 * {@code kill -9}'d and restarted on its journal, clamd stopped under load. Every file put on the
 * inbox and confirmed ends in exactly one of clean, quarantine, rejected or the dead-letter queue
 * (repeats in the same queue allowed and counted), none lost, none in two destinations, no EICAR on
 * clean, nothing rejected (the load is clean files and EICAR: a clamd outage must hold files, never
 * reject them), and history holds one document per file with the disposition of where it went.
 */
class JmsPipeFaultIT extends AbstractJmsFaultIT {

  private static final String READY = "av-gateway JMS ready";
  private static final Duration START = Duration.ofMinutes(2);
  private static final int EICAR_EVERY = 10;

  private static JavaProcess gateway;
  private static int starts;
  private static PipeFaultClient client;

  @BeforeEach
  void pipeGatewayRuns() throws Exception {
    if (gateway == null) {
      gateway = env.rig.startGateway("pipe-gateway", pipeGatewayArgs());
      gateway.awaitLog(READY, ++starts, START);
      client = new PipeFaultClient(env.rig.artemisUrl());
    }
  }

  @AfterAll
  static void stopPipeGateway() throws Exception {
    if (client != null) {
      client.close();
    }
    if (gateway != null) {
      gateway.close();
    }
  }

  @Test
  void pipeGatewayKilledMidBatchAndRestarted() throws Exception {
    Run run = new Run("pipe-gateway-kill-9");
    run.mixed(100);
    run.awaitAnswered(20);
    long held = 0;
    // Scans slowed (every chunk to clamd 500 ms late) so that a batch stays open for a while: the
    // kill lands between its forwards and its commit.
    env.rig.clamdProxy.latencyToTarget(Duration.ofMillis(500));
    try (BrokerQueues queues = new BrokerQueues(env.rig.artemisUrl())) {
      // Keep files coming until the broker counts some delivered to the gateway and uncommitted
      // (an open batch), then kill it at once.
      for (int i = 0; i < 150 && held == 0; i++) {
        run.mixed(2);
        held = queues.deliveringCount(ArtemisBrokerMain.PIPE_INBOX);
      }
      gateway.kill9();
    } finally {
      env.rig.clamdProxy.latencyToTarget(Duration.ZERO);
    }
    System.out.printf(
        "FAULT jms/pipe-gateway-kill-9: killed with %d inbox messages delivered, uncommitted%n",
        held);
    gateway.launch();
    gateway.awaitLog(READY, ++starts, START);
    run.mixed(50);
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY);
    assertThat(held).as("inbox messages in an open transaction just before the kill").isPositive();
    assertThat(run.redelivered())
        .as("history documents marked redelivered (the files of the batch open at the kill)")
        .isGreaterThanOrEqualTo(held);
  }

  @Test
  void artemisKilledUnderPipeLoadAndRestartedOnItsJournal() throws Exception {
    Run run = new Run("pipe-artemis-kill-9");
    run.mixed(200);
    run.awaitAnswered(30);
    env.rig.killArtemis();
    env.rig.restartArtemis();
    run.mixed(50);
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY);
  }

  @Test
  void clamdStoppedUnderPipeLoadHoldsFilesAndRejectsNone() throws Exception {
    Run run = new Run("pipe-clamd-stop-start");
    run.mixed(150);
    run.awaitAnswered(20);
    env.rig.clamd.stop();
    long unanswered;
    try {
      run.mixed(30);
      run.awaitNoProgress(Duration.ofSeconds(2));
      unanswered = run.ledger.unanswered();
      assertThat(run.rejected()).as("files rejected while clamd was down").isZero();
    } finally {
      env.rig.clamd.launch();
    }
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY);
    assertThat(unanswered).as("files held while clamd was down").isPositive();
  }

  /** The gateway JVM with one pipe, on the fault Artemis directly, queues of its own. */
  private List<String> pipeGatewayArgs() {
    List<String> args = new ArrayList<>(env.rig.gatewayArgs("pipe-jvm", env.rig.artemisUrl(), 2));
    args.add("--avgateway.jms.request-queue=" + ArtemisBrokerMain.PIPE_REQUESTS);
    args.add("--avgateway.jms.dead-letter-queue=" + ArtemisBrokerMain.PIPE_DEAD_LETTERS);
    args.add("--avgateway.jms.pipes[0].inbox=" + ArtemisBrokerMain.PIPE_INBOX);
    args.add("--avgateway.jms.pipes[0].clean=" + ArtemisBrokerMain.PIPE_CLEAN);
    args.add("--avgateway.jms.pipes[0].quarantine=" + ArtemisBrokerMain.PIPE_QUARANTINE);
    args.add("--avgateway.jms.pipes[0].rejected=" + ArtemisBrokerMain.PIPE_REJECTED);
    return args;
  }

  /** One scenario's ledger and load, through the shared pipe client. */
  private final class Run {

    final FaultLedger ledger;
    final String prefix;
    private int next;

    Run(String scenario) {
      ledger = new FaultLedger("jms/" + scenario);
      prefix = "fault-jms-" + scenario + "-" + System.currentTimeMillis() + "-";
      client.use(ledger);
    }

    void mixed(int count) {
      for (int i = 0; i < count; i++) {
        String key = prefix + next++;
        client.send(key, FaultPayloads.mixed(prefix, next, EICAR_EVERY));
      }
    }

    void awaitAnswered(long count) {
      await("forwards of " + ledger.scenario())
          .atMost(FaultRun.ANSWER_TIMEOUT)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> ledger.answered() >= count);
    }

    /** Waits (bounded) until nothing arrives for {@code quiet}. */
    void awaitNoProgress(Duration quiet) {
      long[] last = {-1};
      await("no progress in " + ledger.scenario())
          .atMost(quiet.multipliedBy(15))
          .pollInterval(quiet)
          .until(() -> {
            long now = ledger.answered();
            boolean same = now == last[0];
            last[0] = now;
            return same;
          });
    }

    long rejected() {
      return client.rejected(ledger.keys());
    }

    long redelivered() {
      return env.history.documents(prefix).stream().filter(MessageInfo::redelivered).count();
    }

    /**
     * Waits for every forward and its history, then checks the ledger's guarantees and the pipe's
     * own: one destination per file, the outlet of its verdict, its history disposition, nothing
     * rejected, no EICAR on clean.
     */
    void finish(Duplicates duplicates) {
      FaultReport report = env.history.finish(prefix, ledger, FaultRun.ANSWER_TIMEOUT);
      new PipeChecks(client).print(ledger, env.history.documents(prefix));
      report.assertHolds(duplicates).assertAsExpected();
      new PipeChecks(client).assertHolds(ledger, env.history.documents(prefix));
    }
  }
}
