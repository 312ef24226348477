package io.github.avgateway.jms.fault;

import io.github.avgateway.jms.broker.EmbeddedBroker;
import io.github.avgateway.jms.config.JmsProperties;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.springframework.util.unit.DataSize;

/**
 * An external Artemis broker for the fault runs: the Maven Central {@code org.apache.artemis}
 * server in a JVM of its own (started by {@code JavaProcess}), a CORE acceptor on a private port of
 * 127.0.0.1 and a persistent NIO journal in its own directory, so that a test can {@code kill -9}
 * it and start it again on the same journal. Declares the gateway's queues (the history stream's
 * with the embedded broker's bound), the durable reply queue of the fault client, a reply queue
 * that refuses messages when full (the poison scenario) and the queues of the clean-pipe scenarios.
 *
 * <p>Arguments: {@code PORT DATA_DIR BROKER_MAX_DELIVERIES [primary|backup PEER_PORT]}. Prints
 * {@link #READY} once it accepts connections, then runs until killed. With a role, it is that half
 * of a shared-store pair with the broker on {@code PEER_PORT} ({@link ArtemisHa}, same {@code
 * DATA_DIR}): a backup prints {@link #READY} only once it took over.
 */
public final class ArtemisBrokerMain {

  /** The line printed once the broker accepts connections. */
  public static final String READY = "AVGW-FAULT ARTEMIS READY";

  public static final String REQUESTS = "av.scan.requests";
  public static final String DEAD_LETTERS = "av.scan.dead-letters";
  public static final String REPLIES = "av.reply.fault";
  public static final String FULL_REPLIES = "av.reply.full";
  public static final String HISTORY = "av.history";
  public static final String HISTORY_DEAD_LETTERS = "av.history.dead-letters";

  /** The clean-pipe of the pipe scenarios, with a request and dead-letter queue of its own. */
  public static final String PIPE_INBOX = "av.pipe.inbox";

  public static final String PIPE_CLEAN = "av.pipe.clean";
  public static final String PIPE_QUARANTINE = "av.pipe.quarantine";
  public static final String PIPE_REJECTED = "av.pipe.rejected";
  public static final String PIPE_REQUESTS = "av.pipe.requests";
  public static final String PIPE_DEAD_LETTERS = "av.pipe.dlq";

  /** The history stream's bound on this broker: the gateway's default. */
  private static final long HISTORY_MAX_BYTES = 2L * 1024 * 1024 * 1024;

  private ArtemisBrokerMain() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    Path data = Path.of(args[1]).toAbsolutePath();
    int maxDeliveries = Integer.parseInt(args[2]);
    ConfigurationImpl config = configuration(port, data, maxDeliveries);
    if (args.length > 3) {
      ArtemisHa.configure(config, args[3], port, Integer.parseInt(args[4]));
    }
    EmbeddedActiveMQ broker = new EmbeddedActiveMQ();
    broker.setConfiguration(config);
    broker.createActiveMQServer();
    ArtemisHa.announce(broker.getActiveMQServer());
    broker.start();
    broker.getActiveMQServer().waitForActivation(365, TimeUnit.DAYS);
    System.out.println(READY + " on port " + port);
    new CountDownLatch(1).await();
  }

  private static ConfigurationImpl configuration(int port, Path data, int maxDeliveries)
      throws Exception {
    ConfigurationImpl config = new ConfigurationImpl();
    config.setName("avgw-fault-artemis");
    config.setPersistenceEnabled(true);
    config.setSecurityEnabled(false);
    config.setJMXManagementEnabled(false);
    config.setJournalType(JournalType.NIO);
    config.setJournalDirectory(data.resolve("journal").toString());
    config.setBindingsDirectory(data.resolve("bindings").toString());
    config.setLargeMessagesDirectory(data.resolve("large-messages").toString());
    config.setPagingDirectory(data.resolve("paging").toString());
    // as the gateway's embedded broker: a floor of free disk, not 90 % of the disk used
    config.setMinDiskFree(DataSize.parse(JmsProperties.Embedded.DEFAULT_MIN_DISK_FREE).toBytes());
    config.addAcceptorConfiguration("core", "tcp://127.0.0.1:" + port + "?protocols=CORE");
    for (String queue :
        new String[] {
          REQUESTS,
          DEAD_LETTERS,
          REPLIES,
          FULL_REPLIES,
          HISTORY,
          HISTORY_DEAD_LETTERS,
          "DLQ",
          PIPE_INBOX,
          PIPE_CLEAN,
          PIPE_QUARANTINE,
          PIPE_REJECTED,
          PIPE_REQUESTS,
          PIPE_DEAD_LETTERS
        }) {
      config.addQueueConfiguration(
          QueueConfiguration.of(queue)
              .setAddress(queue)
              .setRoutingType(RoutingType.ANYCAST)
              .setDurable(true));
    }
    config.addAddressSetting(
        "#",
        new AddressSettings()
            .setDeadLetterAddress(SimpleString.of("DLQ"))
            .setAutoCreateQueues(false)
            .setAutoCreateAddresses(false));
    config.addAddressSetting(
        REQUESTS,
        new AddressSettings()
            .setDeadLetterAddress(SimpleString.of(DEAD_LETTERS))
            .setMaxDeliveryAttempts(maxDeliveries)
            .setRedeliveryDelay(200)
            .setAutoCreateQueues(false)
            .setAutoCreateAddresses(false));
    config.addAddressSetting(
        PIPE_INBOX,
        new AddressSettings()
            .setDeadLetterAddress(SimpleString.of(PIPE_DEAD_LETTERS))
            .setMaxDeliveryAttempts(maxDeliveries)
            .setRedeliveryDelay(200)
            .setAutoCreateQueues(false)
            .setAutoCreateAddresses(false));
    config.addAddressSetting(HISTORY, EmbeddedBroker.historySettings(HISTORY_MAX_BYTES));
    config.addAddressSetting(
        FULL_REPLIES,
        new AddressSettings()
            .setMaxSizeBytes(1)
            .setAddressFullMessagePolicy(AddressFullMessagePolicy.FAIL)
            .setAutoCreateQueues(false)
            .setAutoCreateAddresses(false));
    return config;
  }
}
