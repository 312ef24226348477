package io.github.avgateway.core.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.testing.TlsPem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A RabbitMQ node of the test's own (Debian's rabbitmq-server, installed by {@code
 * scripts/services.sh}): its own node name, AMQP and distribution ports on 127.0.0.1, data, log and
 * Erlang cookie under its own directory. The shared node on 5672 is never touched; only this node's
 * own process is signalled, by pid. It can be killed ({@code SIGKILL}) and started again on the
 * same data, and have its memory or disk alarm raised and cleared. Started {@link
 * #startWithTls(TlsPem) with TLS}, it also serves AMQPS on a port of its own.
 */
public final class PrivateRabbit implements AutoCloseable {

  private static final Path BIN = Path.of("/usr/lib/rabbitmq/bin");

  private final Path dir;
  private final String node;
  private final int amqpPort;
  private final int distPort;
  private final int tlsPort;
  private Process script;

  private PrivateRabbit(Path dir, String node, int amqpPort, int distPort, int tlsPort) {
    this.dir = dir;
    this.node = node;
    this.amqpPort = amqpPort;
    this.distPort = distPort;
    this.tlsPort = tlsPort;
  }

  /** Starts a fresh node and waits (bounded) until it accepts AMQP 0-9-1. */
  public static PrivateRabbit start() throws IOException {
    return start(null);
  }

  /**
   * Starts a fresh node that also serves AMQPS with {@code pem} (no client certificate asked for)
   * and waits (bounded) until both its plain and its TLS port accept connections.
   */
  public static PrivateRabbit startWithTls(TlsPem pem) throws IOException {
    return start(pem);
  }

  private static PrivateRabbit start(TlsPem tls) throws IOException {
    if (!Files.isExecutable(BIN.resolve("rabbitmq-server"))) {
      throw new IllegalStateException(
          "RabbitMQ is not installed: run scripts/services.sh start (it installs rabbitmq-server)");
    }
    String id = UUID.randomUUID().toString().substring(0, 8);
    PrivateRabbit rabbit =
        new PrivateRabbit(
            Files.createTempDirectory("avgw-rabbit-"),
            "avgw-fault-" + id + "@localhost",
            TestEnv.freePort(),
            TestEnv.freePort(),
            tls == null ? 0 : TestEnv.freePort());
    rabbit.render(tls);
    rabbit.launch();
    return rabbit;
  }

  private void render(TlsPem tls) throws IOException {
    Files.writeString(
        dir.resolve("rabbitmq.conf"),
        String.join(
            "\n",
            tls == null ? "" : tlsListener(tls),
            "listeners.tcp.1 = 127.0.0.1:" + amqpPort,
            "loopback_users.guest = true",
            "consumer_timeout = 900000",
            "vm_memory_high_watermark.relative = 0.4",
            "disk_free_limit.absolute = 50MB",
            "log.file.level = info",
            "log.console = false",
            ""),
        StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("enabled_plugins"), "[].\n", StandardCharsets.UTF_8);
  }

  private String tlsListener(TlsPem tls) {
    return String.join(
        "\n",
        "listeners.ssl.default = 127.0.0.1:" + tlsPort,
        "ssl_options.cacertfile = " + tls.certificate(),
        "ssl_options.certfile = " + tls.certificate(),
        "ssl_options.keyfile = " + tls.privateKey(),
        "ssl_options.verify = verify_none",
        "ssl_options.fail_if_no_peer_cert = false");
  }

  /** Starts the node (again, on the same data after {@link #kill9()}) and waits until it serves. */
  public void launch() throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(BIN.resolve("rabbitmq-server").toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.out").toFile()));
    environment(builder.environment());
    script = builder.start();
    await("private RabbitMQ " + node + " on port " + amqpPort + " (see " + dir + "/log)")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(100))
        .failFast("rabbitmq-server exited", () -> !script.isAlive())
        .until(
            () -> PortProbe.speaksAmqp(amqpPort) && (tlsPort == 0 || PortProbe.accepts(tlsPort)));
  }

  private void environment(Map<String, String> env) {
    env.put("HOME", dir.toString());
    env.put("RABBITMQ_NODENAME", node);
    env.put("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1");
    env.put("RABBITMQ_NODE_PORT", Integer.toString(amqpPort));
    env.put("RABBITMQ_DIST_PORT", Integer.toString(distPort));
    env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
    env.put("RABBITMQ_LOG_BASE", dir.resolve("log").toString());
    env.put("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString());
    env.put("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString());
    env.put("RABBITMQ_PID_FILE", dir.resolve("rabbitmq.pid").toString());
    env.put("ERL_EPMD_ADDRESS", "127.0.0.1");
    env.put("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS", "-kernel inet_dist_use_interface {127,0,0,1}");
  }

  /** The node's AMQP port on 127.0.0.1 (user guest/guest). */
  public int amqpPort() {
    return amqpPort;
  }

  /** The node's AMQPS port on 127.0.0.1; only when started {@link #startWithTls with TLS}. */
  public int amqpsPort() {
    if (tlsPort == 0) {
      throw new IllegalStateException(this + " has no TLS listener");
    }
    return tlsPort;
  }

  /** The node's name, e.g. {@code avgw-fault-1a2b3c4d@localhost}. */
  public String node() {
    return node;
  }

  /** The directory of the node's own log files. */
  public Path logDir() {
    return dir.resolve("log");
  }

  /** {@code SIGKILL} to the node's Erlang VM (no clean shutdown), then waits until it is gone. */
  public void kill9() throws InterruptedException {
    ProcessHandle beam = beam();
    beam.destroyForcibly();
    beam.onExit().orTimeout(30, TimeUnit.SECONDS).join();
    script.waitFor(30, TimeUnit.SECONDS);
  }

  /** Raises ({@code true}) or clears the memory alarm: publishers are blocked while it is up. */
  public void memoryAlarm(boolean raised) {
    ctl("set_vm_memory_high_watermark", raised ? "0.0000001" : "0.4");
  }

  /** Raises ({@code true}) or clears the disk alarm: publishers are blocked while it is up. */
  public void diskAlarm(boolean raised) {
    ctl("set_disk_free_limit", raised ? "1000000GB" : "50MB");
  }

  /** The node's resource alarms as rabbitmqctl prints them ({@code []} when none). */
  public String alarms() {
    return ctl("eval", "rabbit_alarm:get_alarms().").trim();
  }

  /** Runs {@code rabbitmqctl -n NODE args} against this node only; returns its output. */
  public String ctl(String... args) {
    List<String> command =
        new java.util.ArrayList<>(List.of(BIN.resolve("rabbitmqctl").toString(), "-n", node));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    environment(builder.environment());
    return Commands.run(builder, Duration.ofSeconds(60), "rabbitmqctl " + String.join(" ", args));
  }

  private ProcessHandle beam() {
    return script
        .descendants()
        .filter(p -> p.info().command().orElse("").endsWith("beam.smp"))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no beam.smp under " + script.pid()));
  }

  /** Stops the node (SIGTERM to its VM, SIGKILL after 30 s) and deletes its directory. */
  @Override
  public void close() throws Exception {
    if (script != null && script.isAlive()) {
      script.descendants().forEach(ProcessHandle::destroy);
      if (!script.waitFor(30, TimeUnit.SECONDS)) {
        script.descendants().forEach(ProcessHandle::destroyForcibly);
        script.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    if (!Boolean.getBoolean("avgateway.fault.keep")) {
      TestFiles.deleteTree(dir);
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "PrivateRabbit[%s, amqp %d]", node, amqpPort);
  }
}
