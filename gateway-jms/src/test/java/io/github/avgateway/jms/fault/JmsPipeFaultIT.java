package io.github.avgateway.jms.fault;

import io.github.avgateway.core.contract.AbstractPipeFaultContractTests;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.contract.KeyedFaultRun;
import io.github.avgateway.core.contract.PipeFaultDriver;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.testing.PrivateClamd;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The pipe-fault contract ({@link AbstractPipeFaultContractTests}) on JMS (issue 20): a gateway JVM
 * with one pipe on the external Artemis ({@code kill -9}'d with a batch open and started again),
 * Artemis itself {@code kill -9}'d and restarted on its journal, clamd stopped under load. Every
 * file put on the inbox and confirmed ends in exactly one of clean, quarantine, rejected or the
 * dead-letter queue (repeats in the same queue allowed and counted), none lost, none in two
 * destinations, no EICAR on clean, nothing rejected, and history holds one document per file with
 * the disposition of where it went ({@link PipeChecks}).
 */
@ExtendWith(AbstractJmsFaultIT.Environment.class)
class JmsPipeFaultIT extends AbstractPipeFaultContractTests {

  private static final String READY = "av-gateway JMS ready";
  private static final String PAUSED = "JMS intake paused";
  private static final Duration START = Duration.ofMinutes(2);

  private FaultEnvironment env;
  private JavaProcess gateway;
  private int starts;
  private PipeFaultClient client;
  private PipeFaultDriver driver;

  @BeforeAll
  void start(FaultEnvironment environment) throws Exception {
    env = environment;
    gateway = env.rig.startGateway("pipe-gateway", pipeGatewayArgs());
    gateway.awaitLog(READY, ++starts, START);
    client = new PipeFaultClient(env.rig.artemisUrl());
    driver = new Driver();
  }

  @AfterAll
  void stopPipeGateway() throws Exception {
    if (client != null) {
      client.close();
    }
    if (gateway != null) {
      gateway.close();
    }
  }

  @BeforeEach
  void everythingServes() {
    env.awaitIntakeOpen();
  }

  @Override
  protected PipeFaultDriver pipeDriver() {
    return driver;
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

  /** The environment's Artemis and clamd, and the pipe gateway JVM, as the contract sees them. */
  private final class Driver implements PipeFaultDriver {

    @Override
    public FaultDriver.Run run(String scenario) {
      return new Run(scenario);
    }

    @Override
    public PrivateClamd clamd() {
      return env.rig.clamd;
    }

    @Override
    public long intakePauses() throws Exception {
      return gateway.occurrences(PAUSED);
    }

    @Override
    public long rejected(FaultDriver.Run run) {
      return client.rejected(run.ledger().keys());
    }

    /**
     * Scans slowed (every chunk to clamd 500 ms late) so that a batch stays open for a while; files
     * keep coming until the broker counts some delivered to the gateway and uncommitted (an open
     * batch), then the JVM is killed at once: between the batch's forwards and its commit.
     */
    @Override
    public long killGatewayMidBatch(FaultDriver.Run run) throws Exception {
      long held = 0;
      env.rig.clamdProxy.latencyToTarget(Duration.ofMillis(500));
      try (BrokerQueues queues = new BrokerQueues(env.rig.artemisUrl())) {
        for (int i = 0; i < 150 && held == 0; i++) {
          run.mixed(2);
          held = queues.deliveringCount(ArtemisBrokerMain.PIPE_INBOX);
        }
        gateway.kill9();
      } finally {
        env.rig.clamdProxy.latencyToTarget(Duration.ZERO);
      }
      return held;
    }

    @Override
    public void restartGateway() throws Exception {
      gateway.launch();
      gateway.awaitLog(READY, ++starts, START);
    }

    @Override
    public void killAndRestartBroker() throws Exception {
      env.rig.killArtemis();
      env.rig.restartArtemis();
    }

    @Override
    public Duplicates afterFailedBatch() {
      return Duplicates.EXPLAINED_BY_REDELIVERY;
    }
  }

  /** One scenario's ledger and load, through the pipe client. */
  private final class Run extends KeyedFaultRun {

    Run(String scenario) {
      super(
          new FaultLedger("jms/" + scenario),
          "fault-jms-" + scenario + "-" + System.currentTimeMillis() + "-",
          FaultRun.ANSWER_TIMEOUT);
      client.use(ledger);
    }

    @Override
    protected void send(String key, Payload payload) {
      client.send(key, payload);
    }

    /**
     * Waits for every forward and its history, prints the ledger's counts and the pipe's, and
     * asserts the pipe's own: one destination per file, the outlet of its verdict, its history
     * disposition, no EICAR on clean.
     */
    @Override
    public FaultReport finish() {
      FaultReport report = env.history.finish(prefix, ledger, FaultRun.ANSWER_TIMEOUT);
      List<MessageInfo> documents = env.history.documents(prefix);
      new PipeChecks(client).print(ledger, documents);
      new PipeChecks(client).assertHolds(ledger, documents);
      return report;
    }
  }
}
