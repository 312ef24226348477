package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.jms.fault.ArtemisBrokerMain;
import io.github.avgateway.load.Payloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scale-out run (issue 10): gateways against a 2-node SolrCloud (history in a time-routed
 * alias, daily collections of 2 shards x 2 replicas) and private clamd daemons, for each topology
 * (gateways x clamd) closed loops at each size and, at 1 KiB, an open loop at one fixed rate (p99
 * at the same offered load). AMQP on one quorum queue by default ({@code --rabbit-cluster}: on a
 * private 3-node RabbitMQ cluster); {@code --jms}: JMS on one external Artemis. With {@code
 * --fault}, instead a bounded fault run in the 2 x 2 AMQP topology ({@link ScaleFault}). Raw
 * results: {@code perf-notes/raw/scale-out-*.txt}. Every child process is the run's own and is
 * stopped by it.
 */
public final class ScaleOut {

  /** One measured topology. */
  record Topology(int gateways, int clamds) {
    String label() {
      return gateways + "gw-" + clamds + "clamd";
    }
  }

  /** The run's own flags, next to the harness {@link Options}. */
  record Flags(
      boolean fault,
      GatewayRuns.Kind kind,
      List<Topology> topologies,
      double openRate,
      boolean rabbitCluster) {

    static Flags parse(String[] args) {
      List<String> all = Arrays.asList(args);
      return new Flags(
          all.contains("--fault"),
          all.contains("--jms") ? GatewayRuns.Kind.JMS : GatewayRuns.Kind.AMQP,
          value(args, "--topologies=").map(ScaleOut::topologies).orElse(DEFAULT),
          value(args, "--open-rate=").map(Double::parseDouble).orElse(0.0),
          all.contains("--rabbit-cluster"));
    }

    static String[] rest(String[] args) {
      return Arrays.stream(args)
          .filter(a -> !a.equals("--fault") && !a.equals("--jms"))
          .filter(a -> !a.equals("--rabbit-cluster"))
          .filter(a -> !a.startsWith("--topologies=") && !a.startsWith("--open-rate="))
          .toArray(String[]::new);
    }

    private static java.util.Optional<String> value(String[] args, String prefix) {
      return Arrays.stream(args)
          .filter(a -> a.startsWith(prefix))
          .map(a -> a.substring(prefix.length()))
          .findFirst();
    }
  }

  static final List<Topology> DEFAULT =
      List.of(new Topology(1, 1), new Topology(1, 2), new Topology(2, 1), new Topology(2, 2));

  private ScaleOut() {}

  public static void main(String[] args) throws Exception {
    Flags flags = Flags.parse(args);
    if (flags.rabbitCluster() && (flags.fault() || flags.kind() == GatewayRuns.Kind.JMS)) {
      throw new IllegalArgumentException(
          "--rabbit-cluster measures AMQP throughput only; the cluster's fault rows are"
              + " AmqpClusterFaultIT's (docs/reliability.md)");
    }
    Options options = Options.parse(Flags.rest(args));
    String name =
        flags.fault()
            ? "fault-"
            : flags.kind() == GatewayRuns.Kind.JMS
                ? "jms-"
                : flags.rabbitCluster() ? "rabbit-cluster-" : "";
    Path raw =
        options.repo().resolve("perf-notes/raw/scale-out-" + name + options.stamp() + ".txt");
    Report report = new Report(raw);
    report.note("# av-gateway scale-out run, %s UTC", options.stamp());
    report.note("# args: %s", String.join(" ", args));
    report.machine();
    long started = System.nanoTime();
    int status = 0;
    try (ScaleRig rig = new ScaleRig(options)) {
      rig.startBackends();
      if (flags.kind() == GatewayRuns.Kind.JMS) {
        rig.startArtemis();
      } else if (flags.rabbitCluster()) {
        rig.startRabbitCluster();
      }
      report.note(
          "# topology: ZooKeeper, 2 Solr nodes (history: time-routed alias, daily collections of"
              + " 2 shards x 2 replicas), 2 private clamd,"
              + " %s; load average %s",
          broker(flags), Report.loadAverage());
      if (flags.fault()) {
        status = new ScaleFault(options, report, rig).run() ? 0 : 1;
      } else {
        measure(options, flags, report, rig);
        historySize(report, rig);
      }
    }
    report.note(
        "# finished in %d s, load average at end: %s",
        Duration.ofNanos(System.nanoTime() - started).toSeconds(), Report.loadAverage());
    report.note("# raw results: %s", raw);
    System.exit(status);
  }

  /**
   * The history the run left: documents per collection of the alias, and the bytes its cores take
   * on both nodes (two replicas of every document), once the last soft commit made every document
   * visible.
   */
  private static void historySize(Report report, ScaleRig rig) throws Exception {
    try (ScaleHistory history = new ScaleHistory(rig.zkHost())) {
      Map<String, Long> documents = history.documentsPerCollection();
      long total = documents.values().stream().mapToLong(Long::longValue).sum();
      long bytes = rig.historyDiskBytes();
      report.note(
          "# history: %s; %d documents, %d bytes on disk over both nodes (index and update logs"
              + " of 2 replicas), %.0f bytes per document per replica",
          documents, total, bytes, total == 0 ? 0.0 : bytes / 2.0 / total);
    } catch (Exception e) {
      // a segment merged away while its node's home was read: the measurements stand without it
      report.note("# history size not read: %s", e);
    }
  }

  private static String broker(Flags flags) {
    if (flags.kind() == GatewayRuns.Kind.JMS) {
      return "one external Artemis (own JVM, NIO journal)";
    }
    return flags.rabbitCluster()
        ? "a private 3-node RabbitMQ cluster (scripts/rabbitmq-cluster.sh), quorum queue "
            + ScaleRig.QUEUE
            + " with 3 members; gateway i given node i+1's address first, the driver node 3's"
        : "RabbitMQ quorum queue " + ScaleRig.QUEUE;
  }

  /** {@code 1x1,2x2}: gateways x clamd, in the order given. */
  static List<Topology> topologies(String value) {
    return Arrays.stream(value.split(","))
        .map(t -> t.split("x"))
        .map(t -> new Topology(Integer.parseInt(t[0]), Integer.parseInt(t[1])))
        .toList();
  }

  private static void measure(Options options, Flags flags, Report report, ScaleRig rig)
      throws Exception {
    report.timings(options, "topology");
    String target = "scale-" + flags.kind().name().toLowerCase(Locale.ROOT);
    double openRate = flags.openRate();
    for (Topology topology : flags.topologies()) {
      report.note("# %s, load average %s", topology.label(), Report.loadAverage());
      for (int i = 0; i < topology.gateways(); i++) {
        rig.gateways.start(flags.kind(), topology.clamds(), options.gatewayArgs());
      }
      try (Transport driver = driver(options, flags.kind(), rig)) {
        Harness.jitWarmup(driver, options.jitWarmup());
        for (int size : options.sizes()) {
          Cell cell =
              run(options, rig, driver, size).closedLoop(target, topology.label(), window(size));
          report.cell(cell);
          if (size == 1024 && openRate == 0) {
            openRate = Math.max(1, Math.floor(cell.perSecond() / 2));
          }
        }
        if (openRate > 0) {
          String variant = String.format(Locale.ROOT, "%s @%.0f/s", topology.label(), openRate);
          report.cell(run(options, rig, driver, 1024).openLoop(target, variant, openRate));
        }
      } finally {
        rig.gateways.stopAll();
      }
    }
  }

  private static Transport driver(Options options, GatewayRuns.Kind kind, ScaleRig rig)
      throws Exception {
    return kind == GatewayRuns.Kind.AMQP
        ? new AmqpTransport(options.rabbitHost(), rig.driverRabbitPort(), ScaleRig.QUEUE, 4, true)
        : new JmsTransport(
            rig.artemisUrl(), ArtemisBrokerMain.REQUESTS, JmsTransport.PRODUCERS, true);
  }

  private static LoadRun run(Options options, ScaleRig rig, Transport driver, int size) {
    return new LoadRun(
        () -> {
          try {
            return new CpuMeter(rig.cpuGroups());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        driver,
        Payloads.random(size, size),
        Verdict.CLEAN,
        options.warmup(),
        options.measure(),
        Harness.ANSWER_TIMEOUT);
  }

  /** Twice the single-gateway window: enough in flight to keep two gateways' consumers busy. */
  private static int window(int size) {
    return 2 * Options.window(size);
  }
}
