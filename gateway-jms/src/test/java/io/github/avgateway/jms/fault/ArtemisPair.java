package io.github.avgateway.jms.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.testing.TestEnv;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;

/**
 * A shared-store Artemis pair of the test's own ({@link ArtemisBrokerMain} with {@link ArtemisHa}):
 * a primary and a backup, each a JVM of its own on a private port of 127.0.0.1, both on one data
 * directory. The primary can be {@code kill -9}'d (the backup takes the journal over) and started
 * again (it takes it back: fail-back). Only the pair's own processes are signalled.
 */
final class ArtemisPair implements AutoCloseable {

  private static final Duration START = Duration.ofSeconds(90);

  private final int primaryPort = TestEnv.freePort();
  private final int backupPort = TestEnv.freePort();
  private final JavaProcess primary;
  private final JavaProcess backup;
  private int primaryActivations;
  private int backupActivations;

  private ArtemisPair(Path dir, int maxDeliveries) throws Exception {
    String data = dir.resolve("artemis-shared").toString();
    primary = broker(dir, "primary", primaryPort, backupPort, data, maxDeliveries);
    primary.awaitLog(ArtemisHa.ACTIVE, ++primaryActivations, START);
    backup = broker(dir, "backup", backupPort, primaryPort, data, maxDeliveries);
    awaitBackupAnnounced();
  }

  /** Starts the primary, then the backup, and returns once the primary knows its backup. */
  static ArtemisPair start(Path dir, int maxDeliveries) throws Exception {
    return new ArtemisPair(dir, maxDeliveries);
  }

  private static JavaProcess broker(
      Path dir, String role, int port, int peer, String data, int maxDeliveries) throws Exception {
    return JavaProcess.start(
        ArtemisBrokerMain.class.getName(),
        List.of("-Xmx256m", "-Dio.netty.noUnsafe=false"),
        List.of(
            Integer.toString(port),
            data,
            Integer.toString(maxDeliveries),
            role,
            Integer.toString(peer)),
        dir.resolve("logs/artemis-" + role + ".log"));
  }

  /** Both brokers, primary first: {@code (tcp://…,tcp://…)}, for a URL with parameters after. */
  String urls() {
    return "(tcp://127.0.0.1:" + primaryPort + ",tcp://127.0.0.1:" + backupPort + ")";
  }

  /** {@code kill -9} of the primary; returns once the backup is live. */
  void killPrimary() throws InterruptedException {
    primary.kill9();
    backup.awaitLog(ArtemisHa.ACTIVE, ++backupActivations, START);
  }

  /**
   * Starts the old primary again on the shared journal: the live backup hands the journal back
   * (fail-back) and waits as backup again. Returns once the primary is live and knows its backup.
   */
  void failBack() throws Exception {
    primary.launch();
    primary.awaitLog(ArtemisHa.ACTIVE, ++primaryActivations, START);
    awaitBackupAnnounced();
  }

  /**
   * Messages the brokers dropped as duplicates so far (Artemis logs each with {@code AMQ222059}).
   */
  long duplicatesDropped() throws java.io.IOException {
    return primary.occurrences("AMQ222059") + backup.occurrences("AMQ222059");
  }

  /** The primary's pid (alive or not). */
  long primaryPid() {
    return primary.pid();
  }

  /** Waits (bounded) until the live primary's cluster topology holds its backup. */
  private void awaitBackupAnnounced() throws Exception {
    try (ServerLocator locator =
            ActiveMQClient.createServerLocator("tcp://127.0.0.1:" + primaryPort + "?ha=true");
        ClientSessionFactory session = locator.createSessionFactory()) {
      await("the backup announced to the primary")
          .atMost(START)
          .pollInterval(Duration.ofMillis(200))
          .until(() ->
              locator.getTopology().getMembers().stream()
                  .anyMatch(member -> member.getBackup() != null));
    }
  }

  /** Stops the backup, then the primary (so that no failover follows). */
  @Override
  public void close() throws InterruptedException {
    backup.close();
    primary.close();
  }
}
