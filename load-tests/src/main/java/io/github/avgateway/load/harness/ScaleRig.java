package io.github.avgateway.load.harness;

import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.fault.RabbitCluster;
import io.github.avgateway.jms.fault.ArtemisBrokerMain;
import io.github.avgateway.load.scale.SolrNodeMain;
import io.github.avgateway.load.scale.ZooKeeperMain;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The scale-out topology on one machine, every part a process of its own that this rig starts,
 * kills and restarts by its own handle or pid file only: one ZooKeeper, two SolrCloud nodes, two
 * private clamd daemons (started by {@code scripts/services.sh} with their own port and state
 * directory; the shared clamd on 3310 is never touched), for JMS one external Artemis, and the
 * gateway JVMs ({@link ScaleGateways}) on one RabbitMQ quorum queue of the shared node (queue names
 * {@code av.scale.*}, never the tests'), of a private 3-node cluster ({@code --rabbit-cluster}), or
 * on that Artemis.
 */
final class ScaleRig implements AutoCloseable {

  static final String QUEUE = "av.scale.requests";
  static final String DEAD_LETTERS = "av.scale.dead-letters";
  private static final Duration START_LIMIT = Duration.ofSeconds(180);

  private final Options options;
  private final int zkPort = freePort();
  private final int[] solrPorts = {freePort(), freePort()};
  private final int[] clamdPorts = {freePort(), freePort()};
  private final ChildJvm[] solr = new ChildJvm[2];
  final ScaleGateways gateways;
  private final int artemisPort = freePort();
  private JavaProcess artemis;
  private RabbitCluster rabbitCluster;
  private int starts;
  private ChildJvm zk;

  ScaleRig(Options options) {
    this.options = options;
    this.gateways = new ScaleGateways(this, options);
  }

  /** ZooKeeper, then both Solr nodes, then both clamd daemons; each waits until it answers. */
  void startBackends() throws Exception {
    zk =
        started(
            new ChildJvm(
                ZooKeeperMain.class.getName(),
                List.of("-Xmx256m"),
                List.of(dir("zk").toString(), Integer.toString(zkPort)),
                log("zk")),
            "ZooKeeper");
    for (int i = 0; i < 2; i++) {
      startSolrNode(i);
      startClamd(i);
    }
    ScaleHistory.createCollection(zkHost());
  }

  void startSolrNode(int i) throws Exception {
    solr[i] =
        started(
            new ChildJvm(
                SolrNodeMain.class.getName(),
                List.of(
                    "-Xmx768m",
                    "-Dsolr.log.dir=" + dir("solr-logs"),
                    // a killed node loses its ZooKeeper session (and leaderships) in 10 s, not 30
                    "-Dsolr.zkclienttimeout=10000"),
                List.of(dir("solr-" + i).toString(), zkAddress(), Integer.toString(solrPorts[i])),
                log("solr-" + i + "-" + starts++)),
            "Solr node " + i);
  }

  void killSolrNode(int i) throws InterruptedException {
    solr[i].kill9();
  }

  /** Starts private clamd {@code i} through scripts/services.sh (idempotent when it answers). */
  void startClamd(int i) throws IOException, InterruptedException {
    services("start", i);
  }

  /** SIGKILL to private clamd {@code i}, found by the pid file of its own state directory. */
  void killClamd(int i) throws IOException {
    long pid = Long.parseLong(Files.readString(clamdState(i).resolve("clamd/clamd.pid")).strip());
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  /**
   * Bytes on disk of the history alias' cores on both Solr nodes (index and update log of every
   * replica), read from the nodes' homes.
   */
  long historyDiskBytes() throws IOException {
    long bytes = 0;
    for (int i = 0; i < 2; i++) {
      try (Stream<Path> files = Files.walk(dir("solr-" + i))) {
        bytes +=
            files
                .filter(f -> f.toString().contains("history__TRA__") && Files.isRegularFile(f))
                .mapToLong(ScaleRig::size)
                .sum();
      }
    }
    return bytes;
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0; // a file Solr removed meanwhile (a merged segment)
    }
  }

  String zkHost() {
    return "127.0.0.1:" + zkPort;
  }

  private String zkAddress() {
    return zkHost() + "/solr";
  }

  /** CPU groups of the topology for {@link CpuMeter}: gateways, Solr (with ZooKeeper), clamd. */
  Map<String, List<Long>> cpuGroups() throws IOException {
    Map<String, List<Long>> groups = new LinkedHashMap<>();
    groups.put("gateways", gateways.pids());
    List<Long> solrPids = new ArrayList<>(List.of(zk.pid()));
    for (ChildJvm node : solr) {
      solrPids.add(node.pid());
    }
    groups.put("solr+zk", solrPids);
    List<Long> clamds = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Path pidFile = clamdState(i).resolve("clamd/clamd.pid");
      if (Files.exists(pidFile)) {
        clamds.add(Long.parseLong(Files.readString(pidFile).strip()));
      }
    }
    groups.put("clamd", clamds);
    if (artemis != null) {
      groups.put("artemis", List.of(artemis.pid()));
    }
    return groups;
  }

  private void services(String action, int i) throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(
                options.repo().resolve("scripts/services.sh").toString(), action, "clamd")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log("clamd-" + i).toFile()));
    builder.environment().put("AVGW_CLAMD_PORT", Integer.toString(clamdPorts[i]));
    builder.environment().put("AVGW_STATE_DIR", clamdState(i).toString());
    Process process = builder.start();
    if (!process.waitFor(START_LIMIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)
        || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("private clamd " + i + " did not " + action);
    }
  }

  private Path clamdState(int i) {
    return options.work().resolve("clamd-" + i);
  }

  static ChildJvm started(ChildJvm child, String what) throws Exception {
    if (!child.awaitReady(START_LIMIT)) {
      child.close();
      throw new IllegalStateException(what + " did not start within " + START_LIMIT);
    }
    return child;
  }

  private Path dir(String name) throws IOException {
    return Files.createDirectories(options.work().resolve(name));
  }

  Path log(String name) throws IOException {
    return dir("logs").resolve(name + ".log");
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Starts one external Artemis broker in a JVM of its own (the JMS fault suite's {@link
   * ArtemisBrokerMain}: persistent NIO journal, CORE on 127.0.0.1, the gateway's queues declared).
   */
  void startArtemis() throws IOException {
    artemis =
        JavaProcess.start(
            ArtemisBrokerMain.class.getName(),
            List.of("-Xmx1g", "-Dio.netty.noUnsafe=false"),
            List.of(Integer.toString(artemisPort), dir("artemis").toString(), "6"),
            log("artemis"));
    artemis.awaitLog(ArtemisBrokerMain.READY, 1, START_LIMIT);
  }

  /**
   * Starts a private 3-node RabbitMQ cluster ({@link RabbitCluster}, {@code
   * scripts/rabbitmq-cluster.sh}) for the AMQP gateways and the driver instead of the shared node.
   */
  void startRabbitCluster() throws IOException {
    rabbitCluster = RabbitCluster.start(options.work().resolve("rabbit-cluster"));
  }

  /**
   * {@code spring.rabbitmq.*} of AMQP gateway {@code index}: on the cluster every node's address,
   * node {@code index % 3 + 1} first (so that two gateways use two nodes); else the shared node.
   */
  List<String> rabbitArgs(int index) {
    if (rabbitCluster != null) {
      return List.of(
          "--spring.rabbitmq.addresses=" + rabbitCluster.addresses(index % RabbitCluster.SIZE + 1));
    }
    return List.of(
        "--spring.rabbitmq.host=" + options.rabbitHost(),
        "--spring.rabbitmq.port=" + options.rabbitPort());
  }

  /** The AMQP port the load driver uses: node 3's on the cluster, else the shared node's. */
  int driverRabbitPort() {
    return rabbitCluster != null
        ? rabbitCluster.amqpPort(RabbitCluster.SIZE)
        : options.rabbitPort();
  }

  String artemisUrl() {
    return "tcp://127.0.0.1:" + artemisPort;
  }

  String clamdEndpoints(int clamds) {
    List<String> endpoints = new ArrayList<>();
    for (int i = 0; i < clamds; i++) {
      endpoints.add("127.0.0.1:" + clamdPorts[i]);
    }
    return String.join(",", endpoints);
  }

  @Override
  public void close() throws Exception {
    gateways.stopAll();
    for (int i = 0; i < 2; i++) {
      if (solr[i] != null) {
        solr[i].close();
      }
      if (Files.exists(clamdState(i))) {
        services("stop", i);
      }
    }
    if (zk != null) {
      zk.close();
    }
    if (artemis != null) {
      artemis.stop();
    }
    if (rabbitCluster != null) {
      rabbitCluster.close();
    }
  }
}
