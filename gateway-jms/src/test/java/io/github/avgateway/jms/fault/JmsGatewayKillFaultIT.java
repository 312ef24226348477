package io.github.avgateway.jms.fault;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.testing.TestEnv;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JMS gateway with its embedded Artemis in a JVM of its own, {@code kill -9}'d mid-load and
 * started again on the same journal (issue 8, scenario 6): the caller reconnects by itself and
 * collects every reply; nothing confirmed is lost, history holds one document per request.
 */
class JmsGatewayKillFaultIT extends AbstractJmsFaultIT {

  private static final String READY = "av-gateway JMS ready";

  @Test
  void gatewayWithEmbeddedArtemisKilledAndRestartedOnTheSameJournal() throws Exception {
    int port = TestEnv.freePort();
    Path data = env.rig.dir.resolve("embedded-artemis");
    List<String> args = new ArrayList<>(env.rig.gatewayArgs("embedded-jvm", 4));
    args.add("--avgateway.jms.mode=embedded");
    args.add("--avgateway.jms.url=tcp://127.0.0.1:" + port);
    args.add("--avgateway.jms.embedded.data-dir=" + data);
    args.add("--avgateway.jms.embedded.auto-create-queues=true");
    args.add("--avgateway.jms.request-queue=" + ArtemisBrokerMain.REQUESTS);
    args.add("--avgateway.jms.dead-letter-queue=" + ArtemisBrokerMain.DEAD_LETTERS);
    try (JavaProcess gateway = env.rig.startGateway("embedded-gateway", args)) {
      gateway.awaitLog(READY, 1, Duration.ofMinutes(2));
      try (FaultClient client =
          new FaultClient("tcp://127.0.0.1:" + port, ArtemisBrokerMain.REPLIES)) {
        FaultRun run = new FaultRun(env, client, "gateway-embedded-kill-9");
        run.mixed(200);
        run.awaitAnswered(30);
        gateway.kill9();
        gateway.launch();
        gateway.awaitLog(READY, 2, Duration.ofMinutes(2));
        run.mixed(50);
        run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
      }
    }
  }
}
