package io.github.avgateway.core.fault;

import io.github.avgateway.core.testing.TestEnv;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A 3-node RabbitMQ cluster of the caller's own, started by {@code scripts/rabbitmq-cluster.sh}
 * (Debian's rabbitmq-server, nodes run as the rabbitmq user): node names unique to this object,
 * AMQP and distribution ports of its own on 127.0.0.1, data under {@code dir}, an Erlang cookie of
 * its own (so it can reach no other node of the machine). Nodes are numbered 1 to 3; each is
 * killed, stopped and started by its own pid file, never by name. A JVM shutdown hook kills what is
 * still running should the caller end first.
 */
public final class RabbitCluster implements AutoCloseable {

  /** Nodes in the cluster. */
  public static final int SIZE = 3;

  private static final Duration START = Duration.ofMinutes(4);
  private static final Duration COMMAND = Duration.ofMinutes(2);

  private final Path dir;
  private final String prefix;
  private final int amqpBase;
  private final int distBase;
  private final RabbitQueues queues = new RabbitQueues(this);

  private RabbitCluster(Path dir, String prefix, int amqpBase, int distBase) {
    this.dir = dir;
    this.prefix = prefix;
    this.amqpBase = amqpBase;
    this.distBase = distBase;
  }

  /** Starts the three nodes, joined, and returns once all run (bounded). */
  public static RabbitCluster start(Path dir) throws IOException {
    Files.createDirectories(dir);
    String prefix = "avgwc" + UUID.randomUUID().toString().substring(0, 6);
    RabbitCluster cluster = new RabbitCluster(dir, prefix, freeRun(), freeRun());
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::killAll));
    try {
      cluster.script(START, "start");
    } catch (RuntimeException e) {
      cluster.killAll();
      throw e;
    }
    return cluster;
  }

  /** The node's name, e.g. {@code avgwc1a2b3c2@localhost}. */
  public String node(int n) {
    check(n);
    return prefix + n + "@localhost";
  }

  /** Node {@code n}'s AMQP port on 127.0.0.1 (user guest/guest). */
  public int amqpPort(int n) {
    check(n);
    return amqpBase + n - 1;
  }

  /**
   * {@code spring.rabbitmq.addresses} listing every node, node {@code first} first and the others
   * after it in turn: a client that tries them in order connects to {@code first} while it runs.
   */
  public String addresses(int first) {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < SIZE; i++) {
      all.add("127.0.0.1:" + amqpPort((first - 1 + i) % SIZE + 1));
    }
    return String.join(",", all);
  }

  /** The node whose AMQP port is {@code port}, or 0 when none is. */
  public int nodeOfPort(int port) {
    int n = port - amqpBase + 1;
    return n >= 1 && n <= SIZE ? n : 0;
  }

  /**
   * The nodes process {@code pid} holds an established AMQP connection to now (from {@code ss
   * -tnp}: the peer port of each of the process's sockets), e.g. a gateway's or the test's own.
   */
  public Set<Integer> nodesConnectedFrom(long pid) {
    String out =
        Commands.run(
            new ProcessBuilder("ss", "-Htnp", "state", "established"),
            Duration.ofSeconds(30),
            "ss -tnp");
    Set<Integer> nodes = new TreeSet<>();
    String owner = "pid=" + pid + ",";
    for (String line : out.lines().filter(l -> l.contains(owner)).toList()) {
      String[] cols = line.trim().split("\\s+");
      String peer = cols[3];
      int node = nodeOfPort(Integer.parseInt(peer.substring(peer.lastIndexOf(':') + 1)));
      if (node > 0) {
        nodes.add(node);
      }
    }
    return nodes;
  }

  /** What the cluster can say of its queues (leaders, members). */
  public RabbitQueues queues() {
    return queues;
  }

  /** {@code SIGKILL} to node {@code n}'s Erlang VM; returns once it is gone. */
  public void kill9(int n) {
    script(COMMAND, "kill-node", Integer.toString(n));
  }

  /** Stops node {@code n} cleanly ({@code rabbitmqctl stop} with its pid file). */
  public void stop(int n) {
    script(COMMAND, "stop-node", Integer.toString(n));
  }

  /** Starts node {@code n} again on its data; returns once it runs (it rejoins by itself). */
  public void launch(int n) {
    script(START, "start-node", Integer.toString(n));
  }

  /** Whether node {@code n}'s VM is alive (its pid file names a live process). */
  public boolean running(int n) {
    return pid(n) > 0;
  }

  /** Node {@code n}'s VM pid, or 0 when it does not run. */
  public long pid(int n) {
    try {
      Path file = nodeDir(n).resolve("rabbitmq.pid");
      long pid = Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).strip());
      return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent() ? pid : 0;
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  /** Raises ({@code true}) or clears node {@code n}'s memory alarm. */
  public void memoryAlarm(int n, boolean raised) {
    ctl(n, "set_vm_memory_high_watermark", raised ? "0.0000001" : "0.4");
  }

  /** Node {@code n}'s resource alarms as rabbitmqctl prints them ({@code []} when none). */
  public String alarms(int n) {
    return ctl(n, "eval", "rabbit_alarm:get_alarms().").trim();
  }

  /** Runs {@code rabbitmqctl -n NODE args} against node {@code n} only; returns its output. */
  public String ctl(int n, String... args) {
    List<String> command = new ArrayList<>(List.of("ctl", Integer.toString(n)));
    command.addAll(List.of(args));
    return script(COMMAND, command.toArray(String[]::new));
  }

  /** The first node that runs, for questions any node can answer. */
  public int anyRunning() {
    for (int n = 1; n <= SIZE; n++) {
      if (running(n)) {
        return n;
      }
    }
    throw new IllegalStateException("no node of " + this + " runs");
  }

  /** Node {@code n}'s own log directory. */
  public Path logDir(int n) {
    return nodeDir(n).resolve("log");
  }

  private Path nodeDir(int n) {
    check(n);
    return dir.resolve("node" + n);
  }

  private String script(Duration limit, String... args) {
    List<String> command = new ArrayList<>();
    command.add(TestEnv.repo().resolve("scripts/rabbitmq-cluster.sh").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.put("AVGW_CLUSTER_DIR", dir.toString());
    env.put("AVGW_CLUSTER_PORT", Integer.toString(amqpBase));
    env.put("AVGW_CLUSTER_DIST_PORT", Integer.toString(distBase));
    env.put("AVGW_CLUSTER_NAME", prefix);
    return Commands.run(builder, limit, "rabbitmq-cluster.sh " + String.join(" ", args));
  }

  /** {@code SIGKILL} to every node still running, by its pid file. */
  private void killAll() {
    for (int n = 1; n <= SIZE; n++) {
      long pid = pid(n);
      if (pid > 0) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  /** Stops every node cleanly (killing what does not stop) and deletes the cluster's data. */
  @Override
  public void close() {
    try {
      script(COMMAND, "stop");
    } catch (RuntimeException e) {
      killAll();
    }
    if (!Boolean.getBoolean("avgateway.fault.keep")) {
      try {
        TestFiles.deleteTree(dir);
      } catch (IOException e) {
        System.out.println("cannot delete " + dir + ": " + e);
      }
    }
  }

  private static void check(int n) {
    if (n < 1 || n > SIZE) {
      throw new IllegalArgumentException("node " + n + " (1 to " + SIZE + ")");
    }
  }

  /** The first of {@link #SIZE} consecutive ports of 127.0.0.1 on which nothing listens now. */
  private static int freeRun() {
    for (int attempt = 0; attempt < 100; attempt++) {
      int base = ThreadLocalRandom.current().nextInt(20_000, 45_000);
      if (free(base) && free(base + 1) && free(base + 2)) {
        return base;
      }
    }
    throw new IllegalStateException("no " + SIZE + " consecutive free ports found");
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return socket.isBound();
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT, "RabbitCluster[%s1-3, amqp %d-%d]", prefix, amqpBase, amqpBase + SIZE - 1);
  }
}
