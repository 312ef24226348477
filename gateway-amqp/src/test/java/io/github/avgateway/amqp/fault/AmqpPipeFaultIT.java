package io.github.avgateway.amqp.fault;

import io.github.avgateway.core.contract.AbstractPipeFaultContractTests;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.contract.KeyedFaultRun;
import io.github.avgateway.core.contract.PipeFaultDriver;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipe.PipeOutlet;
import io.github.avgateway.core.testing.PrivateClamd;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The pipe-fault contract ({@link AbstractPipeFaultContractTests}) on AMQP 0-9-1 (issue 20): clamd
 * stopped and started, the pipe gateway's JVM killed mid-forward and restarted, the RabbitMQ node
 * killed and restarted, each under a mixed load of files on a pipe of a gateway in its own JVM on a
 * private node, clamd and Solr ({@link AmqpFaultRig}). Every confirmed file must end on exactly one
 * destination (clean, quarantine, rejected or the dead-letter queue; repeats on the same one are
 * at-least-once and counted), none lost, none EICAR-bearing on clean, none rejected because clamd
 * was away, and one history document per file whose disposition is the destination's ({@link
 * PipeTraffic#assertPipeHolds}).
 */
class AmqpPipeFaultIT extends AbstractPipeFaultContractTests {

  private static final Pipe PIPE =
      new Pipe("uploads.inbox", "uploads.clean", "uploads.quarantine", "uploads.rejected");
  private static final String PAUSED = "pausing AMQP intake";
  private static final Duration ANSWER_BOUND = Duration.ofSeconds(120);

  private AmqpFaultRig rig;
  private JavaProcess gateway;
  private PipeTraffic traffic;
  private PipeFaultDriver driver;

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
    driver = new Driver();
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

  @Override
  protected PipeFaultDriver pipeDriver() {
    return driver;
  }

  /** The rig, its pipe gateway JVM and the pipe's traffic as the contract sees them. */
  private final class Driver implements PipeFaultDriver {

    @Override
    public FaultDriver.Run run(String scenario) {
      return new PipeRun(scenario);
    }

    @Override
    public PrivateClamd clamd() {
      return rig.clamd;
    }

    @Override
    public long intakePauses() throws Exception {
      return gateway.occurrences(PAUSED);
    }

    @Override
    public long rejected(FaultDriver.Run run) {
      return traffic.reached(run.ledger().keys(), PipeOutlet.REJECTED);
    }

    /** Kills the JVM at once: with two consumers busy under the load, a batch is open. */
    @Override
    public long killGatewayMidBatch(FaultDriver.Run run) throws Exception {
      gateway.kill9();
      return -1;
    }

    @Override
    public void restartGateway() throws Exception {
      gateway.launch();
    }

    @Override
    public void killAndRestartBroker() throws Exception {
      rig.killAndRestartNode(2);
    }

    @Override
    public Duplicates afterFailedBatch() {
      return Duplicates.FORBIDDEN;
    }
  }

  /** One scenario's files on the pipe, and the checks at its end. */
  private final class PipeRun extends KeyedFaultRun {

    PipeRun(String scenario) {
      super(rig.ledger(scenario), rig.run(scenario), ANSWER_BOUND);
      traffic.use(ledger);
    }

    @Override
    protected void send(String key, Payload payload) {
      traffic.send(key, payload);
    }

    /**
     * Waits for every confirmed file to reach a destination and for its history, prints the
     * ledger's counts and the pipe's, and asserts the pipe's.
     */
    @Override
    public FaultReport finish() {
      FaultClient.awaitAnswered(ledger, ANSWER_BOUND);
      rig.collectHistory(ledger, prefix, Duration.ofSeconds(30));
      FaultReport report = ledger.report().print();
      try {
        traffic.assertPipeHolds(ledger.scenario(), ledger.keys(), rig.historyDocuments(prefix));
      } catch (Exception e) {
        throw new IllegalStateException("cannot read the pipe's history", e);
      }
      return report;
    }
  }
}
