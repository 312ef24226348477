package io.github.avgateway.amqp.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.GatewayAmqpApplication;
import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.fault.PrivateRabbit;
import io.github.avgateway.core.fault.RabbitCluster;
import io.github.avgateway.core.fault.TestFiles;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.testing.HttpProbe;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.core.testing.TcpProxy;
import io.github.avgateway.solr.HistoryDocs;
import io.github.avgateway.solr.StandaloneSolr;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.solr.client.solrj.SolrClient;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Everything one AMQP fault scenario class runs against, all private to it: a RabbitMQ node, a
 * clamd and a standalone Solr, each behind an in-JVM TCP proxy the scenarios cut, freeze or slow
 * down, and gateways in JVMs of their own (so that they can be killed) on the module's application
 * class. The callers ({@link FaultClient}) talk to the node directly. Closing stops everything it
 * started, by handle or pid.
 */
final class AmqpFaultRig implements AutoCloseable {

  static final String REQUESTS = "av.scan.requests";
  static final String DEAD_LETTERS = "av.scan.dead-letters";
  static final String HISTORY = "av.history";
  private static final Pattern HTTP_PORT = Pattern.compile("started on port (\\d+)");
  static final Duration START = Duration.ofSeconds(120);

  final Path dir;

  /** The private node (null on a cluster) and the gateways' proxy to it. */
  final PrivateRabbit rabbit;

  final TcpProxy rabbitProxy;

  /** The private 3-node cluster, or null on one node. */
  final RabbitCluster cluster;

  final PrivateClamd clamd;
  final TcpProxy clamdProxy;
  final StandaloneSolr solr;
  final TcpProxy solrProxy;
  final FaultClient client;
  private final SolrClient solrClient;
  private final List<JavaProcess> gateways = new ArrayList<>();
  private final AtomicInteger runs = new AtomicInteger();

  AmqpFaultRig(String name) throws Exception {
    this(name, false);
  }

  /**
   * A rig on one private node behind a proxy, or ({@code onCluster}) on a private 3-node cluster
   * reached directly (no proxy, no {@link #rabbit}): its gateways and client get every node's
   * address, node 1 first.
   */
  AmqpFaultRig(String name, boolean onCluster) throws Exception {
    dir = Path.of("target", "fault", name).toAbsolutePath();
    TestFiles.deleteTree(dir);
    Files.createDirectories(dir);
    RigProcesses started = RigProcesses.start(dir, onCluster);
    rabbit = started.rabbit();
    cluster = started.cluster();
    rabbitProxy = rabbit == null ? null : TcpProxy.to(rabbit.amqpPort());
    clamd = started.clamd();
    clamdProxy = TcpProxy.to(clamd.port());
    solr = started.solr();
    solrProxy = TcpProxy.to(URI.create(solr.baseUrl()).getPort());
    solrClient = solr.client(Duration.ofSeconds(10));
    client =
        onCluster
            ? new FaultClient(
                RabbitIt.connectionFactory(cluster.addresses(1)), REQUESTS, DEAD_LETTERS, true)
            : new FaultClient(rabbit.amqpPort(), REQUESTS, DEAD_LETTERS);
  }

  /**
   * Starts one more gateway JVM and waits until it consumes; {@code extra} adds arguments, or
   * replaces the rig's own of the same name ({@code --avgateway.amqp.consumers=1}).
   */
  JavaProcess startGateway(String name, String... extra) throws Exception {
    List<String> args = gatewayArgs(name, extra);
    int consumers = Integer.parseInt(value(args, "--avgateway.amqp.consumers="));
    int before = consumers();
    JavaProcess gateway = start(name, args);
    awaitConsumers(before + consumers);
    return gateway;
  }

  /**
   * Starts a JVM in indexer mode ({@code --avgateway.mode=indexer}: no request consumers, one
   * history indexer) on the rig's node and Solr, and waits until it has started.
   */
  JavaProcess startIndexer(String name, String... extra) throws Exception {
    List<String> more = new ArrayList<>(List.of(extra));
    more.add("--avgateway.mode=indexer");
    JavaProcess indexer = start(name, gatewayArgs(name, more.toArray(String[]::new)));
    indexer.awaitLog("Started " + GatewayAmqpApplication.class.getSimpleName(), 1, START);
    return indexer;
  }

  private JavaProcess start(String name, List<String> args) throws Exception {
    JavaProcess process =
        JavaProcess.start(
            GatewayAmqpApplication.class.getName(),
            List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-Xshare:auto"),
            args,
            dir.resolve(name + ".log"));
    gateways.add(process);
    return process;
  }

  /**
   * The rig's arguments with {@code extra}'s added; an extra one replaces the rig's of its name.
   */
  private List<String> gatewayArgs(String name, String... extra) {
    List<String> args = new ArrayList<>();
    for (String arg : defaultArgs(name)) {
      String key = arg.substring(0, arg.indexOf('=') + 1);
      if (Arrays.stream(extra).noneMatch(e -> e.startsWith(key))) {
        args.add(arg);
      }
    }
    args.addAll(List.of(extra));
    return args;
  }

  private static String value(List<String> args, String key) {
    return args.stream()
        .filter(arg -> arg.startsWith(key))
        .map(arg -> arg.substring(key.length()))
        .reduce((first, last) -> last)
        .orElseThrow();
  }

  private List<String> defaultArgs(String name) {
    String solrUrl = "http://127.0.0.1:" + solrProxy.port() + "/solr";
    return List.of(
        "--spring.main.banner-mode=off",
        // The HTTP port (server.port=0 on the test class path) is read from this logger's line.
        "--logging.level.org.springframework.boot.tomcat.TomcatWebServer=INFO",
        "--avgateway.pipeline.gateway-name=" + name,
        rabbit != null
            ? "--spring.rabbitmq.port=" + rabbitProxy.port()
            : "--spring.rabbitmq.addresses=" + cluster.addresses(1),
        "--spring.rabbitmq.requested-heartbeat=2s",
        "--avgateway.clamd.endpoints=127.0.0.1:" + clamdProxy.port(),
        "--avgateway.clamd.max-size=1MB",
        "--avgateway.clamd.read-timeout=15s",
        "--avgateway.clamd.server.max-scan-time=10s",
        "--avgateway.clamd.probe-interval=200ms",
        "--avgateway.solr.mode=http",
        "--avgateway.solr.http.base-url=" + solrUrl,
        "--avgateway.solr.request-timeout=4s",
        "--avgateway.solr.batch.probe-interval=200ms",
        "--avgateway.amqp.consumers=2",
        "--avgateway.amqp.delivery-limit=4",
        "--avgateway.amqp.intake-check-interval=100ms",
        "--avgateway.amqp.recovery-interval=500ms",
        "--avgateway.amqp.confirm-timeout=4s",
        "--avgateway.amqp.history-timeout=10s",
        // The indexer retries Solr within seconds once it is back, not after up to 30 s.
        "--avgateway.history.indexer.backoff-max=5s");
  }

  /**
   * Kills the private node ({@code SIGKILL}), starts it again on its own data and waits until
   * {@code consumers} consume the request queue again.
   */
  void killAndRestartNode(int consumers) throws Exception {
    rabbit.kill9();
    rabbit.launch();
    awaitConsumers(consumers);
  }

  /** Consumers on the request queue now, as the node reports them. */
  int consumers() {
    var info = client.admin().getQueueInfo(REQUESTS);
    return info == null ? 0 : info.getConsumerCount();
  }

  /**
   * History messages ready on the history queue now (a passive declare on the callers' own
   * connection, never the gateway's; messages an indexer holds unacknowledged are not counted).
   */
  long historyReady() {
    var info = client.admin().getQueueInfo(HISTORY);
    return info == null ? 0 : info.getMessageCount();
  }

  /** The history queue's messages ready and held unacknowledged, as {@code rabbitmqctl} tells. */
  QueueDepth historyDepth() {
    String out =
        ctl(
            "list_queues",
            "-q",
            "--no-table-headers",
            "name",
            "messages_ready",
            "messages_unacknowledged");
    return out.lines()
        .map(line -> line.trim().split("\\s+"))
        .filter(cols -> cols.length == 3 && cols[0].equals(HISTORY))
        .map(cols -> new QueueDepth(Long.parseLong(cols[1]), Long.parseLong(cols[2])))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no " + HISTORY + " in: " + out));
  }

  /** Every queue's messages ready and unacknowledged and its consumers, as rabbitmqctl prints. */
  String queueDepths() {
    return ctl("list_queues", "name", "messages_ready", "messages_unacknowledged", "consumers");
  }

  /** {@code rabbitmqctl args} on the rig's node (on a cluster: any running node). */
  private String ctl(String... args) {
    return rabbit != null ? rabbit.ctl(args) : cluster.ctl(cluster.anyRunning(), args);
  }

  /** A queue's messages ready for a consumer and delivered but not acknowledged. */
  record QueueDepth(long ready, long unacked) {
    long total() {
      return ready + unacked;
    }
  }

  /** The HTTP endpoints of {@code gateway} (its port as its log last announced it). */
  HttpProbe http(JavaProcess gateway) throws IOException {
    Matcher port = HTTP_PORT.matcher(Files.readString(gateway.log(), StandardCharsets.ISO_8859_1));
    String last = null;
    while (port.find()) {
      last = port.group(1);
    }
    if (last == null) {
      throw new IllegalStateException("no HTTP port announced in " + gateway.log());
    }
    return new HttpProbe(Integer.parseInt(last));
  }

  /** Waits until the node reports at least {@code count} consumers on the request queue. */
  void awaitConsumers(int count) {
    await("at least " + count + " consumers on " + REQUESTS)
        .atMost(START)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> consumers() >= count);
  }

  /** A fresh ledger for one scenario, receiving the client's replies and dead-letters. */
  FaultLedger ledger(String scenario) {
    FaultLedger ledger = new FaultLedger("amqp/" + scenario);
    client.use(ledger);
    return ledger;
  }

  /** A key prefix unique to one scenario run. */
  String run(String scenario) {
    return "fault-" + scenario + "-" + runs.incrementAndGet() + "-";
  }

  /**
   * Reads the history documents of {@code prefix} (a correlation id prefix) into the ledger until
   * every answered request has one, or {@code timeout} passed (the report then counts the rest).
   */
  void collectHistory(FaultLedger ledger, String prefix, Duration timeout) {
    try {
      await(ledger.scenario() + ": a history document for every answered request")
          .atMost(timeout)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(300))
          .until(() -> {
            readHistory(ledger, prefix);
            return ledger.keysWithoutHistory().isEmpty();
          });
    } catch (ConditionTimeoutException e) {
      // the report counts what is missing
    }
  }

  private void readHistory(FaultLedger ledger, String prefix) {
    try {
      historyDocuments(prefix).forEach(ledger::history);
    } catch (Exception e) {
      // Solr stopped or restarting: the next poll tries again
    }
  }

  /** The history documents in Solr (read directly, not through the proxy) of {@code prefix}. */
  List<MessageInfo> historyDocuments(String prefix) throws Exception {
    return HistoryDocs.withCorrelationPrefix(solrClient, StandaloneSolr.CORE, prefix);
  }

  /** How many history documents of {@code prefix} Solr holds (read directly). */
  long historyCount(String prefix) throws Exception {
    return historyDocuments(prefix).size();
  }

  @Override
  public void close() throws Exception {
    for (JavaProcess gateway : gateways) {
      gateway.stop();
    }
    client.close();
    if (rabbitProxy != null) {
      rabbitProxy.close();
    }
    clamdProxy.close();
    solrProxy.close();
    solrClient.close();
    solr.close();
    clamd.close();
    for (AutoCloseable broker : new AutoCloseable[] {rabbit, cluster}) {
      if (broker != null) {
        broker.close();
      }
    }
  }
}
