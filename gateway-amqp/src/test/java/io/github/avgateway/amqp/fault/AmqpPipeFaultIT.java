package io.github.avgateway.amqp.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipe.PipeOutlet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Clean-pipe mode under the fault suite's scenarios that apply (issue 20): clamd stopped and
 * started, the gateway JVM killed mid-forward and restarted, the RabbitMQ node killed and
 * restarted, each under a mixed load (every tenth file EICAR, plain or zipped) on a pipe of a
 * gateway in its own JVM on a private node, clamd and Solr ({@link AmqpFaultRig}). Every confirmed
 * file must end on exactly one destination (clean, quarantine, rejected or the dead-letter queue;
 * repeats on the same one are at-least-once and counted), none lost, none EICAR-bearing on clean,
 * none rejected because clamd was away, and one history document per file whose disposition is the
 * destination's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AmqpPipeFaultIT {

  private static final Pipe PIPE =
      new Pipe("uploads.inbox", "uploads.clean", "uploads.quarantine", "uploads.rejected");
  private static final String PAUSED = "pausing AMQP intake";
  private static final Duration ANSWER_BOUND = Duration.ofSeconds(120);
  private static final int LOAD = 200;

  private AmqpFaultRig rig;
  private JavaProcess gateway;
  private PipeTraffic traffic;

  @BeforeAll
  void start() throws Exception {
    rig = new AmqpFaultRig("pipe");
    gateway =
        rig.startGateway(
            "gw-pipe",
            "--avgateway.amqp.pipes[0].inbox=" + PIPE.inbox(),
            "--avgateway.amqp.pipes[0].clean=" + PIPE.clean(),
            "--avgateway.amqp.pipes[0].quarantine=" + PIPE.quarantine(),
            "--avgateway.amqp.pipes[0].rejected=" + PIPE.rejected());
    traffic = new PipeTraffic(rig.rabbit.amqpPort(), PIPE, rig.client);
  }

  @AfterAll
  void stop() throws Exception {
    if (traffic != null) {
      traffic.close();
    }
    if (rig != null) {
      rig.close();
    }
  }

  @Test
  @Order(1)
  void clamdStoppedAndStartedNothingRejected() throws Exception {
    PipeRun run = new PipeRun("pipe-clamd-stop").load(LOAD).awaitAnswered(40);
    long pauses = gateway.occurrences(PAUSED);
    rig.clamd.stop();
    try {
      await("'" + PAUSED + "' logged")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> gateway.occurrences(PAUSED) > pauses);
      run.load(50);
    } finally {
      rig.clamd.launch();
    }
    run.finish(Duplicates.FORBIDDEN).assertAsExpected();
    assertThat(traffic.reached(run.keys(), PipeOutlet.REJECTED))
        .as("files rejected (clamd away must hold, not reject)")
        .isZero();
  }

  @Test
  @Order(2)
  void gatewayKilledMidForwardAndRestarted() throws Exception {
    PipeRun run = new PipeRun("pipe-gateway-kill-9").load(LOAD).awaitAnswered(40);
    gateway.kill9();
    assertThat(gateway.alive()).isFalse();
    run.load(50);
    gateway.launch();
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  @Test
  @Order(3)
  void rabbitmqKilledAndRestarted() throws Exception {
    PipeRun run = new PipeRun("pipe-rabbitmq-kill-9").load(LOAD).awaitAnswered(40);
    rig.rabbit.kill9();
    rig.rabbit.launch();
    rig.awaitConsumers(2);
    run.load(50);
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  /** One scenario's files on the pipe, and the checks at its end. */
  private final class PipeRun {

    private final FaultLedger ledger;
    private final String prefix;
    private int sent;

    PipeRun(String scenario) {
      ledger = rig.ledger(scenario);
      prefix = rig.run(scenario);
      traffic.use(ledger);
    }

    PipeRun load(int count) {
      for (int i = 0; i < count; i++) {
        int index = sent++;
        traffic.send(prefix + index, FaultPayloads.mixed(prefix, index, 10));
      }
      return this;
    }

    PipeRun awaitAnswered(long count) {
      await(ledger.scenario() + ": " + count + " files forwarded")
          .atMost(ANSWER_BOUND)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> ledger.answered() >= count);
      return this;
    }

    List<String> keys() {
      return ledger.keys();
    }

    /**
     * Waits for every confirmed file to reach a destination and for its history, prints the
     * ledger's counts and the pipe's, and asserts them.
     */
    FaultReport finish(Duplicates duplicates) throws Exception {
      FaultClient.awaitAnswered(ledger, ANSWER_BOUND);
      rig.collectHistory(ledger, prefix, Duration.ofSeconds(30));
      FaultReport report = ledger.report().print();
      traffic.assertPipeHolds(ledger.scenario(), keys(), rig.historyDocuments(prefix));
      return report.assertHolds(duplicates);
    }
  }
}
