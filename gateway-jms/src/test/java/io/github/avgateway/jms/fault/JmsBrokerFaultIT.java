package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.model.MessageInfo;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Broker and gateway faults under load (issue 8, scenarios 2, 4, 20 and 22) on an external Artemis
 * in its own JVM: nothing confirmed is lost, a request answered twice is one the broker redelivered
 * (and history shows it), every verdict is the same each time.
 */
class JmsBrokerFaultIT extends AbstractJmsFaultIT {

  @Test
  void artemisKilledAndRestartedOnItsJournal() throws Exception {
    FaultRun run = new FaultRun(env, "artemis-kill-9");
    run.mixed(200);
    run.awaitAnswered(30);
    env.rig.killArtemis();
    env.rig.restartArtemis();
    run.mixed(50);
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  @Test
  void brokerConnectionHalfOpenThenBack() {
    FaultRun run = new FaultRun(env, "artemis-half-open");
    run.mixed(200);
    run.awaitAnswered(30);
    int connections = env.rig.artemisProxy.connections();
    env.rig.artemisProxy.freeze();
    try {
      run.awaitNoProgress(Duration.ofSeconds(1));
      run.mixed(30);
      org.awaitility.Awaitility.await("the gateway noticed the dead connections and reconnects")
          .atMost(Duration.ofSeconds(60))
          .until(() -> env.rig.artemisProxy.connections() > connections);
    } finally {
      env.rig.artemisProxy.thaw();
    }
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  @Test
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

  @Test
  void twoGatewaysOnOneQueueOneKilledTheOtherTakesOver() throws Exception {
    List<String> args = env.rig.gatewayArgs("second-jvm", env.rig.artemisUrl(), 2);
    try (JavaProcess second = env.rig.startGateway("second-gateway", args)) {
      second.awaitLog("av-gateway JMS ready", 1, Duration.ofMinutes(2));
      FaultRun run = new FaultRun(env, "two-gateways-one-killed");
      run.mixed(300);
      run.awaitAnswered(60);
      second.kill9();
      run.mixed(50);
      run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
      assertThat(run.documents().stream().map(MessageInfo::gateway).collect(Collectors.toSet()))
          .as("gateways that answered")
          .hasSize(2);
    }
  }
}
