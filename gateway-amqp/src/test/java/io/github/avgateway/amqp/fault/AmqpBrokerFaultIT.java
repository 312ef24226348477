package io.github.avgateway.amqp.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.AbstractBrokerFaultContractTests;
import io.github.avgateway.core.contract.BrokerFaultDriver;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.testing.TcpProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.Consumer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Broker faults on AMQP 0-9-1 (issue 8, scenarios 1, 2, 3, 5 and 22) on a private RabbitMQ node:
 * the shared broker-fault contract ({@link AbstractBrokerFaultContractTests}: the node's connection
 * frozen half-open, the node killed and restarted, one of two gateways killed), and what only
 * RabbitMQ has or this rig runs: memory and disk alarms raised and cleared, the gateway JVM killed
 * mid-scan and restarted. Repeats are allowed only where a redelivery (recorded in history)
 * explains them.
 */
class AmqpBrokerFaultIT extends AbstractBrokerFaultContractTests {

  private static final String REQUEUED = "requests requeued";
  private AmqpFaultRig rig;
  private JavaProcess gateway;
  private BrokerFaultDriver driver;

  @BeforeAll
  void start() throws Exception {
    rig = new AmqpFaultRig("broker");
    gateway = rig.startGateway("gw-broker-a");
    driver = new Driver();
  }

  @AfterAll
  void stop() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  @Override
  protected BrokerFaultDriver brokerDriver() {
    return driver;
  }

  @Test
  @Order(3)
  void memoryAlarmRaisedAndCleared() {
    alarmRaisedAndCleared("memory", rig.rabbit::memoryAlarm);
  }

  @Test
  @Order(4)
  void diskAlarmRaisedAndCleared() {
    alarmRaisedAndCleared("disk", rig.rabbit::diskAlarm);
  }

  private void alarmRaisedAndCleared(String kind, Consumer<Boolean> alarm) {
    FaultRun run = new FaultRun(rig, "rabbitmq-" + kind + "-alarm").load(400).awaitAnswered(60);
    alarm.accept(true);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> rig.rabbit.alarms().contains(kind));
      holdWhileRepliesAreBlocked();
    } finally {
      alarm.accept(false);
    }
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  /**
   * Keeps an alarm up until the gateway gave up waiting for a confirm and requeued a batch, at most
   * 20 s (on a slow machine the alarm may also clear first; the counts are checked either way).
   */
  private void holdWhileRepliesAreBlocked() {
    long before = occurrences(REQUEUED);
    try {
      await("a batch requeued for want of confirms")
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> occurrences(REQUEUED) > before);
    } catch (ConditionTimeoutException e) {
      // held 20 s: long enough for the blocked replies to matter
    }
  }

  private long occurrences(String text) {
    try {
      return gateway.occurrences(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  @Order(5)
  void gatewayKilledMidScanAndRestarted() throws Exception {
    FaultRun run = new FaultRun(rig, "gateway-kill-9").load(600).awaitAnswered(100);
    gateway.kill9();
    assertThat(gateway.alive()).isFalse();
    run.load(100);
    gateway.launch();
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  /** The rig's node, its proxy and the gateway JVMs as the broker-fault contract sees them. */
  private final class Driver implements BrokerFaultDriver {

    @Override
    public FaultDriver.Run run(String scenario) {
      return new FaultRun(rig, scenario);
    }

    @Override
    public void killAndRestartBroker() throws Exception {
      rig.killAndRestartNode(2);
    }

    @Override
    public TcpProxy brokerProxy() {
      return rig.rabbitProxy;
    }

    /** No FIN: only heartbeats (2 s) tell the node that the gateway is gone. */
    @Override
    public void awaitHalfOpenNoticed(FaultDriver.Run run) {
      await("the node dropped the frozen gateway connection")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> rig.consumers() == 0);
    }

    @Override
    public void startSecondGateway() throws Exception {
      rig.startGateway("gw-broker-b");
    }

    @Override
    public void killOneOfTwoGateways() throws Exception {
      gateway.kill9();
    }
  }
}
