package io.github.avgateway.jms.fault;

import java.util.List;
import org.apache.activemq.artemis.core.config.ClusterConnectionConfiguration;
import org.apache.activemq.artemis.core.config.ha.SharedStoreBackupPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.SharedStorePrimaryPolicyConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.ActivateCallback;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.cluster.impl.MessageLoadBalancingType;

/**
 * The high-availability half of {@link ArtemisBrokerMain}: a primary or a backup of a shared-store
 * pair. Both brokers use the same data directory (journal, bindings, paging, large messages) on one
 * disk; the one that holds the journal's file lock is live, the other waits for it. A cluster
 * connection to the peer makes the backup announce itself to the primary, which tells its clients
 * where to fail over to. The primary fails over on a clean shutdown too; the backup gives the
 * journal back when the old primary comes back (fail-back) and then waits as backup again.
 */
final class ArtemisHa {

  /** Printed each time the broker becomes live (the primary at start, a backup on failover). */
  static final String ACTIVE = "AVGW-FAULT ARTEMIS ACTIVE";

  /** Printed when a live broker stops being live (a backup handing back on fail-back). */
  static final String DEACTIVATED = "AVGW-FAULT ARTEMIS DEACTIVATED";

  private ArtemisHa() {}

  /** Makes {@code config} the {@code role} ("primary" or "backup") of a pair with {@code peer}. */
  static void configure(ConfigurationImpl config, String role, int port, int peer)
      throws Exception {
    config.addConnectorConfiguration("self", "tcp://127.0.0.1:" + port);
    config.addConnectorConfiguration("peer", "tcp://127.0.0.1:" + peer);
    config.setClusterUser("avgw-fault-cluster");
    config.setClusterPassword("avgw-fault-cluster");
    config.addClusterConfiguration(
        new ClusterConnectionConfiguration()
            .setName("avgw-ha")
            .setConnectorName("self")
            .setStaticConnectors(List.of("peer"))
            .setRetryInterval(500)
            .setMessageLoadBalancingType(MessageLoadBalancingType.OFF));
    switch (role) {
      case "primary" ->
          config.setHAPolicyConfiguration(
              new SharedStorePrimaryPolicyConfiguration().setFailoverOnServerShutdown(true));
      case "backup" ->
          config.setHAPolicyConfiguration(
              new SharedStoreBackupPolicyConfiguration()
                  .setAllowFailBack(true)
                  .setFailoverOnServerShutdown(true)
                  .setRestartBackup(true));
      default -> throw new IllegalArgumentException("role must be primary or backup: " + role);
    }
  }

  /** Prints {@link #ACTIVE} and {@link #DEACTIVATED} as {@code server} changes state. */
  static void announce(ActiveMQServer server) {
    server.registerActivateCallback(
        new ActivateCallback() {
          @Override
          public void activationComplete() {
            System.out.println(ACTIVE);
          }

          @Override
          public void deActivate() {
            System.out.println(DEACTIVATED);
          }
        });
  }
}
