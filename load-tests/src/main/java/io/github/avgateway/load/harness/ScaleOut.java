package io.github.avgateway.load.harness;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The scale-out run (issue 10): the AMQP gateway against a 2-node SolrCloud (history collection in
 * 2 shards x 2 replicas) and private clamd daemons, with 1 or 2 gateways x 1 or 2 clamd, closed
 * loops at each size and, at 1 KiB, an open loop at one fixed rate for every topology (p99 at the
 * same offered load). With {@code --fault}, instead a bounded fault run in the 2 x 2 topology (see
 * {@link ScaleFault}). Raw results: {@code perf-notes/raw/scale-out-TIMESTAMP.txt}. Every child
 * process is the run's own and is stopped by it.
 */
public final class ScaleOut {

  /** One measured topology. */
  record Topology(int gateways, int clamds) {
    String label() {
      return gateways + "gw-" + clamds + "clamd";
    }
  }

  static final List<Topology> TOPOLOGIES =
      List.of(new Topology(1, 1), new Topology(1, 2), new Topology(2, 1), new Topology(2, 2));

  private static final String TARGET = "scale-amqp";

  private ScaleOut() {}

  public static void main(String[] args) throws Exception {
    boolean fault = Arrays.asList(args).contains("--fault");
    List<Topology> topologies =
        Arrays.stream(args)
            .filter(a -> a.startsWith("--topologies="))
            .findFirst()
            .map(a -> parse(a.substring("--topologies=".length())))
            .orElse(TOPOLOGIES);
    String[] rest =
        Arrays.stream(args)
            .filter(a -> !a.equals("--fault") && !a.startsWith("--topologies="))
            .filter(a -> !a.startsWith("--open-rate="))
            .toArray(String[]::new);
    Arrays.stream(args)
        .filter(a -> a.startsWith("--open-rate="))
        .forEach(a -> System.setProperty("scale.openRate", a.substring("--open-rate=".length())));
    Options options = Options.parse(rest);
    String stamp = options.stamp();
    Path raw =
        options
            .repo()
            .resolve("perf-notes/raw/scale-out-" + (fault ? "fault-" : "") + stamp + ".txt");
    Report report = new Report(raw);
    report.note("# av-gateway scale-out run%s, %s UTC", fault ? " (fault)" : "", stamp);
    report.note("# args: %s", String.join(" ", args));
    report.note(
        "# cores %d, JVM %s, load average at start: %s",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.version"),
        Report.loadAverage());
    long started = System.nanoTime();
    int status = 0;
    try (ScaleRig rig = new ScaleRig(options)) {
      rig.startBackends();
      report.note(
          "# topology: ZooKeeper, 2 Solr nodes (history: 2 shards x 2 replicas), 2 private clamd,"
              + " RabbitMQ quorum queue %s; load average %s",
          ScaleRig.QUEUE, Report.loadAverage());
      if (fault) {
        status = new ScaleFault(options, report, rig).run() ? 0 : 1;
      } else {
        measure(options, report, rig, topologies);
      }
    }
    report.note(
        "# finished in %d s, load average at end: %s",
        Duration.ofNanos(System.nanoTime() - started).toSeconds(), Report.loadAverage());
    report.note("# raw results: %s", raw);
    System.exit(status);
  }

  /** {@code 1x1,2x2}: gateways x clamd, in the order given. */
  static List<Topology> parse(String value) {
    return Arrays.stream(value.split(","))
        .map(t -> t.split("x"))
        .map(t -> new Topology(Integer.parseInt(t[0]), Integer.parseInt(t[1])))
        .toList();
  }

  private static void measure(
      Options options, Report report, ScaleRig rig, List<Topology> topologies) throws Exception {
    report.note(
        "# JIT warm-up %ds per topology; warm-up %ds, measure %ds per cell; sizes %s",
        options.jitWarmup().toSeconds(),
        options.warmup().toSeconds(),
        options.measure().toSeconds(),
        options.sizes().stream().map(Payloads::label).toList());
    report.note("%s", Cell.header());
    double openRate = Double.parseDouble(System.getProperty("scale.openRate", "0"));
    for (Topology topology : topologies) {
      report.note("# %s, load average %s", topology.label(), Report.loadAverage());
      for (int i = 0; i < topology.gateways(); i++) {
        rig.startGateway(topology.clamds(), options.gatewayArgs());
      }
      try (AmqpTransport driver =
          new AmqpTransport(options.rabbitHost(), options.rabbitPort(), ScaleRig.QUEUE, 4, true)) {
        Harness.jitWarmup(driver, options.jitWarmup());
        for (int size : options.sizes()) {
          Cell cell =
              run(options, rig, driver, size).closedLoop(TARGET, topology.label(), window(size));
          report.cell(cell);
          if (size == 1024 && openRate == 0) {
            openRate = Math.max(1, Math.floor(cell.perSecond() / 2));
          }
        }
        if (openRate > 0) {
          String variant = String.format(Locale.ROOT, "%s @%.0f/s", topology.label(), openRate);
          report.cell(run(options, rig, driver, 1024).openLoop(TARGET, variant, openRate));
        }
      } finally {
        rig.stopGateways();
      }
    }
  }

  private static LoadRun run(Options options, ScaleRig rig, Transport driver, int size) {
    return new LoadRun(
        () -> {
          try {
            return new CpuMeter(rig.cpuGroups());
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
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
