package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.AbstractBrokerFaultContractTests;
import io.github.avgateway.core.contract.BrokerFaultDriver;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Broker faults on JMS (issue 8, scenarios 2, 4, 20 and 22) on an external Artemis in its own JVM
 * ({@link FaultEnvironment}): the shared broker-fault contract ({@link
 * AbstractBrokerFaultContractTests}: the gateway's broker connections frozen half-open, Artemis
 * killed and restarted on its journal, one of two gateways killed: here a second gateway JVM beside
 * the one in the test JVM), and requests the broker takes back from consumers holding open
 * transactions, which keep one history document and their verdict.
 */
@ExtendWith(AbstractJmsFaultIT.Environment.class)
class JmsBrokerFaultIT extends AbstractBrokerFaultContractTests {

  private FaultEnvironment env;
  private BrokerFaultDriver driver;
  private JavaProcess second;

  @BeforeAll
  void start(FaultEnvironment environment) {
    env = environment;
    driver = new Driver();
  }

  @AfterAll
  void stopSecondGateway() throws Exception {
    if (second != null) {
      second.close();
    }
  }

  @BeforeEach
  void everythingServes() {
    env.awaitIntakeOpen();
  }

  @Override
  protected BrokerFaultDriver brokerDriver() {
    return driver;
  }

  @Test
  @Order(3)
  void redeliveredRequestsKeepOneHistoryDocumentAndTheirVerdict() {
    FaultRun run = new FaultRun(env, "redelivered-duplicates");
    run.mixed(120);
    run.awaitAnswered(20);
    env.rig.clamdProxy.freeze(); // scans hang: every consumer holds an open transaction
    try {
      run.awaitNoProgress(Duration.ofSeconds(1));
      env.rig.artemisProxy.cutAll(); // the broker takes those requests back
    } finally {
      env.rig.clamdProxy.thaw();
    }
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
    assertThat(run.redelivered()).as("requests the broker redelivered").isPositive();
  }

  /** The environment's Artemis, its proxy and a second gateway JVM as the contract sees them. */
  private final class Driver implements BrokerFaultDriver {

    @Override
    public FaultDriver.Run run(String scenario) {
      return new FaultRun(env, scenario);
    }

    @Override
    public void killAndRestartBroker() throws Exception {
      env.rig.killArtemis();
      env.rig.restartArtemis();
      try (BrokerQueues queues = new BrokerQueues(env.rig.artemisUrl())) {
        await("the gateway consumes from the restarted Artemis")
            .atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> queues.consumerCount(ArtemisBrokerMain.REQUESTS) > 0);
      }
    }

    @Override
    public TcpProxy brokerProxy() {
      return env.rig.artemisProxy;
    }

    /**
     * The gateway's connection TTL (6 s) tells it the frozen connections are dead; it reconnects
     * through the proxy, which counts the new connections. More load makes it try meanwhile.
     */
    @Override
    public void awaitHalfOpenNoticed(FaultDriver.Run run) {
      int connections = env.rig.artemisProxy.connections();
      run.awaitNoProgress(Duration.ofSeconds(1));
      run.mixed(30);
      await("the gateway noticed the dead connections and reconnects")
          .atMost(Duration.ofSeconds(60))
          .until(() -> env.rig.artemisProxy.connections() > connections);
    }

    @Override
    public void startSecondGateway() throws Exception {
      List<String> args = env.rig.gatewayArgs("second-jvm", env.rig.artemisUrl(), 2);
      second = env.rig.startGateway("second-gateway", args);
      second.awaitLog("av-gateway JMS ready", 1, Duration.ofMinutes(2));
    }

    @Override
    public void killOneOfTwoGateways() throws Exception {
      second.kill9();
    }
  }
}
