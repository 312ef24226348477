package io.github.avgateway.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.model.MessageInfo;
import java.util.stream.Collectors;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The broker-fault contract (docs/reliability.md, scenarios 2, 4 and 22; docs/architecture.md,
 * "Tests and the fault model"): the broker killed and restarted on its own data, its connection to
 * the gateway frozen half-open, and one of two gateways on one queue killed, all under the mixed
 * load, every front-end extending this class with a {@link BrokerFaultDriver}. Nothing the broker
 * confirmed is lost, a request answered twice is one the broker delivered again (its history
 * document says so), every answer is the one expected, one history document per request. A
 * transport's own broker faults (RabbitMQ's alarms, Artemis' journal under an embedded broker) stay
 * in its subclass.
 *
 * <p>One instance runs the cases in order; the takeover case is last, as it leaves one gateway
 * killed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class AbstractBrokerFaultContractTests {

  /** The driver of the front-end under test; called in every case, after the subclass's set-up. */
  protected abstract BrokerFaultDriver brokerDriver();

  @Test
  @Order(1)
  public void brokerConnectionHalfOpenThenBack() throws Exception {
    BrokerFaultDriver driver = brokerDriver();
    FaultDriver.Run run = driver.run("broker-half-open");
    run.mixed(400);
    run.awaitAnswered(60);
    driver.brokerProxy().freeze();
    try {
      driver.awaitHalfOpenNoticed(run);
    } finally {
      driver.brokerProxy().thaw();
    }
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  @Test
  @Order(2)
  public void brokerKilledAndRestartedOnItsOwnData() throws Exception {
    BrokerFaultDriver driver = brokerDriver();
    FaultDriver.Run run = driver.run("broker-kill-9");
    run.mixed(400);
    run.awaitAnswered(60);
    driver.killAndRestartBroker();
    run.mixed(50);
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  /** Both gateways answered before one was killed; the other answered the rest. */
  @Test
  @Order(100)
  public void twoGatewaysOnOneQueueOneKilledTheOtherTakesOver() throws Exception {
    BrokerFaultDriver driver = brokerDriver();
    driver.startSecondGateway();
    FaultDriver.Run run = driver.run("two-gateways-one-killed");
    run.mixed(400);
    run.awaitAnswered(80);
    driver.killOneOfTwoGateways();
    run.mixed(100);
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
    assertThat(
            run.ledger().documents().stream().map(MessageInfo::gateway).collect(Collectors.toSet()))
        .as("gateways that answered")
        .hasSize(2);
  }
}
