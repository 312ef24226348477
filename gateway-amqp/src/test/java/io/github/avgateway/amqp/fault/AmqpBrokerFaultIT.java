package io.github.avgateway.amqp.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.Consumer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 8, scenarios 1, 2, 3, 5 and 22 on AMQP: the private RabbitMQ node killed and restarted, its
 * connection frozen half-open, its memory and disk alarms raised and cleared, the gateway JVM
 * killed mid-scan and restarted, and a second gateway taking over from a killed one. Repeats are
 * allowed only where a redelivery (recorded in history) explains them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AmqpBrokerFaultIT {

  private static final String REQUEUED = "requests requeued";
  private AmqpFaultRig rig;
  private JavaProcess gateway;

  @BeforeAll
  void start() throws Exception {
    rig = new AmqpFaultRig("broker");
    gateway = rig.startGateway("gw-broker-a");
  }

  @AfterAll
  void stop() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  @Test
  @Order(1)
  void halfOpenBrokerConnection() {
    FaultRun run = new FaultRun(rig, "rabbitmq-half-open").load(400).awaitAnswered(60);
    rig.rabbitProxy.freeze();
    try {
      // No FIN: only heartbeats (2 s) tell both sides that the peer is gone.
      await("the node dropped the frozen gateway connection")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> rig.consumers() == 0);
    } finally {
      rig.rabbitProxy.thaw();
    }
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  @Test
  @Order(2)
  void memoryAlarmRaisedAndCleared() {
    alarmRaisedAndCleared("memory", rig.rabbit::memoryAlarm);
  }

  @Test
  @Order(3)
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
  @Order(4)
  void rabbitmqKilledAndRestarted() throws Exception {
    FaultRun run = new FaultRun(rig, "rabbitmq-kill-9").load(600).awaitAnswered(100);
    rig.rabbit.kill9();
    rig.rabbit.launch();
    rig.awaitConsumers(2);
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
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

  @Test
  @Order(6)
  void secondGatewayTakesOverFromAKilledOne() throws Exception {
    JavaProcess second = rig.startGateway("gw-broker-b");
    FaultRun run = new FaultRun(rig, "two-gateways-one-killed").load(600).awaitAnswered(100);
    gateway.kill9();
    run.load(100);
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
    assertThat(second.alive()).isTrue();
  }
}
