package io.github.avgateway.jms.broker;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.core.pipe.PipeOutlet;
import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.pipe.JmsPipes;
import io.github.avgateway.jms.triage.ReplyAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.remoting.impl.netty.NettyAcceptorFactory;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.Queue;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.core.settings.impl.PageFullMessagePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Artemis in this JVM: an acceptor at {@code avgateway.jms.url} for outside clients speaking the
 * configured protocols (CORE, AMQP 1.0, STOMP), an in-VM acceptor for the gateway's own consumers,
 * the request and dead-letter queues and every clean-pipe's queues declared, and redelivery
 * settings on the request queue and the pipes' inboxes. The broker's own delivery limit sits above
 * the gateway's, as a backstop for requests the gateway could not even dead-letter itself.
 */
public final class EmbeddedBroker {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedBroker.class);
  private static final String BROKER_DLQ = "DLQ";
  private static final String BROKER_EXPIRY = "ExpiryQueue";

  /** Callers' named reply queues ({@code av.reply.*}), in Artemis' wildcard syntax. */
  static final String REPLY_QUEUES = "av.reply.#";

  /** How long an auto-created reply queue stays after its last consumer left. */
  private static final Duration REPLY_QUEUE_IDLE = Duration.ofMinutes(1);

  private static final AtomicInteger NEXT_IN_VM_ID = new AtomicInteger();

  /** Of the history address, what the broker keeps in memory before it pages to disk. */
  private static final long HISTORY_IN_MEMORY = 32L * 1024 * 1024;

  private final JmsProperties properties;
  private final HistoryStreamProperties history;
  private final List<Pipe> pipes;
  private final int inVmId = NEXT_IN_VM_ID.getAndIncrement();
  private volatile EmbeddedActiveMQ server;
  private JournalType journalType;

  /**
   * @param history the history stream: its queue and dead-letter queue are created, and its bound
   *     set (see {@link #historySettings})
   */
  public EmbeddedBroker(JmsProperties properties, HistoryStreamProperties history) {
    this.properties = properties;
    this.history = history;
    this.pipes = JmsPipes.checked(properties, history);
  }

  /** Starts the broker; returns once it accepts connections. */
  public synchronized void start() throws Exception {
    if (server != null) {
      return;
    }
    EmbeddedActiveMQ embedded = new EmbeddedActiveMQ();
    embedded.setConfiguration(configuration());
    embedded.start();
    if (!embedded.getActiveMQServer().isActive()) {
      embedded.stop();
      throw new IllegalStateException(
          "the embedded Artemis broker did not start (see its error above), data under "
              + properties.embedded().dataDir().toAbsolutePath().normalize());
    }
    server = embedded;
    log.info(
        "Embedded Artemis started: {} acceptor {}{}, {} journal under {}",
        protocolList(properties.embedded().protocols()),
        properties.url(),
        properties.tls().enabled() ? " (TLS)" : "",
        properties.embedded().persistent() ? journalType : "no",
        properties.embedded().dataDir().toAbsolutePath().normalize());
  }

  /** Stops the broker; messages in a persistent journal stay for the next start. */
  public synchronized void stop() throws Exception {
    if (server != null) {
      server.stop();
      server = null;
    }
  }

  /** The URL of this broker's in-VM acceptor, for clients in this JVM. */
  public String inVmUrl() {
    return "vm://" + inVmId;
  }

  /**
   * Messages in {@code queue}, those delivered to a consumer but not yet acknowledged included; -1
   * when the broker is stopped or has no such queue.
   */
  public long messageCount(String queue) {
    Queue found = locate(queue);
    return found == null ? -1 : found.getMessageCount();
  }

  /**
   * True when the running broker holds an anycast queue named {@code queue} on the address of the
   * same name: what the JMS client's address and queue queries would find before a send to the
   * queue, looked up in the broker itself. False when the broker is stopped. Asked before every
   * reply.
   */
  public boolean anycastQueueExists(String queue) {
    Queue found = locate(queue);
    return found != null
        && found.getRoutingType() == RoutingType.ANYCAST
        && found.getAddress().equals(found.getName());
  }

  /** Consumers attached to {@code queue}; -1 when the broker is stopped or has no such queue. */
  public int consumerCount(String queue) {
    Queue found = locate(queue);
    return found == null ? -1 : found.getConsumerCount();
  }

  /** The running broker's queue named {@code queue}; null when it is stopped or has none. */
  private Queue locate(String queue) {
    EmbeddedActiveMQ running = server;
    return running == null ? null : running.getActiveMQServer().locateQueue(queue);
  }

  /**
   * Whether the address {@code queue} is at its page limit, so that a send fails (page-full FAIL);
   * false when the broker is not running. Cheap and lock-free: asked before every batch's history
   * message.
   */
  public boolean historyFull(String queue) {
    EmbeddedActiveMQ running = server;
    if (running == null) {
      return false;
    }
    try {
      var store =
          running.getActiveMQServer().getPagingManager().getPageStore(SimpleString.of(queue));
      return store != null && store.isPageFull();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the paging state of " + queue, e);
    }
  }

  /**
   * Whether the broker found less free space on its data directory's disk than {@code
   * embedded.min-disk-free} at its last look (every 5 s), so that it blocks every producer; false
   * when it is not running.
   */
  public boolean diskFull() {
    EmbeddedActiveMQ running = server;
    return running != null && running.getActiveMQServer().getPagingManager().isDiskFull();
  }

  /** The journal in use (AIO or NIO); meaningful after {@link #start()}. */
  public JournalType journalType() {
    return journalType;
  }

  private Configuration configuration() throws Exception {
    JmsProperties.Embedded embedded = properties.embedded();
    Path data = embedded.dataDir().toAbsolutePath().normalize();
    ConfigurationImpl config = new ConfigurationImpl();
    config.setName("av-gateway-" + inVmId);
    config.setPersistenceEnabled(embedded.persistent());
    config.setSecurityEnabled(false);
    config.setJMXManagementEnabled(false);
    config.setJournalDirectory(data.resolve("journal").toString());
    config.setBindingsDirectory(data.resolve("bindings").toString());
    config.setLargeMessagesDirectory(data.resolve("large-messages").toString());
    config.setPagingDirectory(data.resolve("paging").toString());
    // A floor of free bytes rather than Artemis's share of the disk (90 % used), which blocks a
    // large disk with gigabytes to spare; when both are set, the floor is the one used.
    config.setMinDiskFree(embedded.minDiskFree().toBytes());
    journalType = journalType(embedded.journal());
    config.setJournalType(journalType);
    config.addAcceptorConfiguration("in-vm", inVmUrl());
    config.addAcceptorConfiguration(
        clientAcceptor(properties.url(), properties.tls(), embedded.protocols()));
    addQueues(config);
    return config;
  }

  private void addQueues(ConfigurationImpl config) {
    String request = properties.requestQueue();
    String deadLetters = properties.deadLetterQueue();
    for (String queue :
        new String[] {
          request,
          deadLetters,
          history.queue(),
          history.deadLetterQueue(),
          BROKER_DLQ,
          BROKER_EXPIRY
        }) {
      config.addQueueConfiguration(anycast(queue));
    }
    config.addAddressSetting(history.queue(), historySettings(history.maxBytes().toBytes()));
    config.addAddressSetting(
        history.deadLetterQueue(),
        brokerDefaults()
            .setMaxDeliveryAttempts(-1)
            .setAutoCreateQueues(false)
            .setAutoCreateAddresses(false));
    boolean autoCreate = properties.embedded().autoCreateQueues();
    // Every other address (callers' reply queues) gets Artemis' usual DLQ and ExpiryQueue. One a
    // client creates without saying how (a STOMP SUBSCRIBE to a plain name, an AMQP 1.0 link with
    // no capability) is a queue, as the gateway's replies need, never Artemis' default topic.
    config.addAddressSetting(
        "#",
        brokerDefaults()
            .setDefaultAddressRoutingType(RoutingType.ANYCAST)
            .setDefaultQueueRoutingType(RoutingType.ANYCAST)
            .setAutoCreateQueues(autoCreate)
            .setAutoCreateAddresses(autoCreate)
            .setAutoDeleteQueues(autoCreate)
            .setAutoDeleteAddresses(autoCreate));
    boolean replyQueues = autoCreate || properties.embedded().autoCreateReplyQueues();
    // Callers' named reply queues: a STOMP SUBSCRIBE (or an AMQP 1.0 receiver) creates one, and the
    // broker removes it once unused for a minute, with any replies nobody came for.
    config.addAddressSetting(
        REPLY_QUEUES,
        brokerDefaults()
            .setDefaultAddressRoutingType(RoutingType.ANYCAST)
            .setDefaultQueueRoutingType(RoutingType.ANYCAST)
            .setAutoCreateQueues(replyQueues)
            .setAutoCreateAddresses(replyQueues)
            .setAutoDeleteQueues(replyQueues)
            .setAutoDeleteAddresses(replyQueues)
            .setAutoDeleteQueuesDelay(REPLY_QUEUE_IDLE.toMillis())
            .setAutoDeleteQueuesMessageCount(-1L)
            .setAutoDeleteAddressesDelay(REPLY_QUEUE_IDLE.toMillis()));
    config.addAddressSetting(request, intakeSettings());
    addPipes(config);
    config.addAddressSetting(
        deadLetters,
        brokerDefaults()
            .setMaxDeliveryAttempts(-1)
            .setAutoCreateQueues(false)
            .setAutoCreateAddresses(false));
  }

  /**
   * A queue the gateway consumes (the request queue, a pipe's inbox): what it cannot even
   * dead-letter itself goes to its dead-letter queue after the broker's own delivery limit, above
   * the gateway's.
   */
  private AddressSettings intakeSettings() {
    String deadLetters = properties.deadLetterQueue();
    return new AddressSettings()
        .setDeadLetterAddress(SimpleString.of(deadLetters))
        .setExpiryAddress(SimpleString.of(deadLetters))
        .setMaxDeliveryAttempts(properties.maxDeliveryAttempts() + 2)
        .setRedeliveryDelay(properties.redeliveryDelay().toMillis())
        .setAutoCreateQueues(false)
        .setAutoCreateAddresses(false);
  }

  /**
   * Each clean-pipe's four queues, anycast and durable: the inbox set up as the request queue, the
   * outlets never auto-created (even with {@code auto-create-queues}), so that an outlet that is
   * gone is refused at the send and the message dead-lettered as {@code FORWARD_UNROUTABLE},
   * instead of forwarded into a queue nobody reads.
   */
  private void addPipes(ConfigurationImpl config) {
    Set<String> outlets = new LinkedHashSet<>(); // pipes may share an outlet
    for (Pipe pipe : pipes) {
      config.addQueueConfiguration(anycast(pipe.inbox()));
      config.addAddressSetting(pipe.inbox(), intakeSettings());
      for (PipeOutlet outlet : PipeOutlet.values()) {
        outlets.add(pipe.destination(outlet));
      }
    }
    for (String queue : outlets) {
      config.addQueueConfiguration(anycast(queue));
      // An outlet whose queue was deleted under a running gateway (its sessions know the address
      // already, so the send is not refused): the forward goes to DLQ, never nowhere.
      config.addAddressSetting(
          queue,
          brokerDefaults()
              .setSendToDLAOnNoRoute(true)
              .setAutoCreateQueues(false)
              .setAutoCreateAddresses(false));
    }
  }

  /**
   * The history address: up to 32 MiB (or the bound, if smaller) in memory, the rest paged to disk
   * up to {@code maxBytes} ({@code avgateway.history.max-bytes}); beyond that a send fails
   * (page-full FAIL), which the batches see as a full backlog. Never dead-lettered by the broker:
   * the indexer holds what Solr refuses and a crash redelivers, however often. The settings an
   * external broker's history address should have too.
   */
  public static AddressSettings historySettings(long maxBytes) {
    long inMemory = Math.min(HISTORY_IN_MEMORY, maxBytes);
    return new AddressSettings()
        .setAddressFullMessagePolicy(AddressFullMessagePolicy.PAGE)
        .setMaxSizeBytes(inMemory)
        .setPageSizeBytes((int) Math.max(1024, Math.min(10L * 1024 * 1024, inMemory / 2)))
        .setPageLimitBytes(maxBytes)
        .setPageFullMessagePolicy(PageFullMessagePolicy.FAIL)
        .setMaxDeliveryAttempts(-1)
        .setAutoCreateQueues(false)
        .setAutoCreateAddresses(false);
  }

  private static AddressSettings brokerDefaults() {
    return new AddressSettings()
        .setDeadLetterAddress(SimpleString.of(BROKER_DLQ))
        .setExpiryAddress(SimpleString.of(BROKER_EXPIRY));
  }

  private static QueueConfiguration anycast(String name) {
    return QueueConfiguration.of(name)
        .setAddress(name)
        .setRoutingType(RoutingType.ANYCAST)
        .setDurable(true);
  }

  /**
   * The acceptor at the configured URL: {@code protocols} on one port, {@code /queue/} and {@code
   * /topic/} as the anycast and multicast prefixes (so that a STOMP client may name {@code
   * /queue/av.scan.requests} or plain {@code av.scan.requests}), with TLS when configured, for
   * every protocol. Parameters go in as a map, never through a URL, so that the key store password
   * is neither encoded nor printed.
   */
  static TransportConfiguration clientAcceptor(
      String url, JmsProperties.Tls tls, List<JmsProperties.ClientProtocol> protocols) {
    URI uri = tcpUri(url);
    Map<String, Object> params = new HashMap<>();
    params.put(TransportConstants.HOST_PROP_NAME, uri.getHost());
    params.put(TransportConstants.PORT_PROP_NAME, uri.getPort());
    params.put(TransportConstants.PROTOCOLS_PROP_NAME, protocolList(protocols));
    params.put("anycastPrefix", ReplyAddress.QUEUE_PREFIX);
    params.put("multicastPrefix", ReplyAddress.TOPIC_PREFIX);
    if (tls.enabled()) {
      if (tls.keyStore().isBlank()) {
        throw new IllegalArgumentException(
            "avgateway.jms.tls.key-store is required for TLS on the embedded broker");
      }
      params.put(TransportConstants.SSL_ENABLED_PROP_NAME, true);
      params.put(TransportConstants.KEYSTORE_PATH_PROP_NAME, tls.keyStore());
      params.put(TransportConstants.KEYSTORE_PASSWORD_PROP_NAME, tls.keyStorePassword());
    }
    return new TransportConfiguration(NettyAcceptorFactory.class.getName(), params, "clients");
  }

  /** {@code CORE,AMQP,STOMP}: Artemis' {@code protocols} value, each protocol once. */
  static String protocolList(List<JmsProperties.ClientProtocol> protocols) {
    return protocols.stream().distinct().map(Enum::name).collect(Collectors.joining(","));
  }

  private static URI tcpUri(String url) {
    URI uri = URI.create(url);
    if (!"tcp".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
      throw new IllegalArgumentException("avgateway.jms.url must be tcp://host:port, got " + url);
    }
    return uri;
  }

  private static JournalType journalType(JmsProperties.JournalMode mode) {
    return switch (mode) {
      case NIO -> JournalType.NIO;
      case AIO -> JournalType.ASYNCIO;
      case MAPPED -> JournalType.MAPPED;
    };
  }
}
