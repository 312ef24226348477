package io.github.avgateway.load.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** The measuring phases of one harness run, in order. */
final class Phases {

  static final String ECHO_QUEUE = "av.perf.echo";

  private final Options options;
  private final Report report;

  Phases(Options options, Report report) {
    this.options = options;
    this.report = report;
  }

  void runAll() throws Exception {
    Files.createDirectories(options.work());
    if (options.phases().contains(EicarSame.PHASE)) {
      new EicarSame(options, report).run();
    }
    if (options.phases().contains("clamd")) {
      clamd();
    }
    if (options.phases().contains("amqp-echo")) {
      amqpEcho("quorum", true, "echo quorum", options.sizes());
    }
    if (options.phases().contains("jms-echo")) {
      jmsEcho("persistent", true, "echo persistent", options.sizes());
    }
    GatewayRuns gateways = new GatewayRuns(options, report);
    if (options.phases().contains("amqp") || options.phases().contains("amqp-on")) {
      gatewayRounds(gateways, GatewayRuns.Kind.AMQP, "amqp", GatewayFigures.Via.AMQP);
    }
    if (options.phases().contains("jms") || options.phases().contains("jms-on")) {
      if (GatewayRuns.jmsAvailable()) {
        gatewayRounds(gateways, GatewayRuns.Kind.JMS, "jms", GatewayFigures.Via.JMS);
      } else {
        report.note("# JMS gateway: gateway-jms is not on the class path yet; skipped");
      }
    }
    if (options.phases().contains("durability")) {
      durability();
    }
    if (options.phases().contains("cold")) {
      ColdStarts cold = new ColdStarts(options, report);
      cold.run(GatewayRuns.Kind.AMQP, true);
      cold.run(GatewayRuns.Kind.JMS, false);
    }
  }

  /**
   * The size cells of one kind of gateway, {@code --rounds} times: history on (then, in the first
   * round, the echo at its half-load rate), the baseline's, tracing on, and with phase {@code
   * phase} history off; every second round in the reverse order (A B, B A, A B, …), so that a
   * machine growing faster or slower over the run does not favour the JVMs that always come later.
   */
  private void gatewayRounds(
      GatewayRuns gateways, GatewayRuns.Kind kind, String phase, GatewayFigures.Via via)
      throws Exception {
    for (int round = 1; round <= options.rounds(); round++) {
      String suffix = roundSuffix(round);
      List<GatewayStep> steps = new ArrayList<>();
      steps.add(() -> gateways.run(kind, true, "history-on" + suffix, List.of(), true, sizes()));
      if (round == 1 && options.phases().contains(phase + "-echo")) {
        steps.add(() -> echoAtHalfLoad(via));
      }
      if (options.baseline() != null) {
        steps.add(() -> gateways.runBaseline(kind, sizes(), suffix));
      }
      if (options.tracing() != null) {
        steps.add(() -> gateways.runTracing(kind, sizes(), suffix));
      }
      if (options.phases().contains(phase)) {
        steps.add(
            () -> gateways.run(kind, false, "history-off" + suffix, List.of(), true, sizes()));
      }
      if (round % 2 == 0) {
        Collections.reverse(steps);
      }
      for (GatewayStep step : steps) {
        step.run();
      }
    }
  }

  /** One gateway JVM's cells (or the echo's) within a round. */
  @FunctionalInterface
  private interface GatewayStep {
    void run() throws Exception;
  }

  private List<Integer> sizes() {
    return options.sizes();
  }

  /**
   * What tells the JVMs of round {@code round} ({@code --rounds}) apart in their variant: nothing
   * for the first, " #2" and so on for the next.
   */
  static String roundSuffix(int round) {
    return round == 1 ? "" : " #" + round;
  }

  private void clamd() throws Exception {
    report.note("# clamd alone, load average %s", Report.loadAverage());
    try (Transport raw =
        new ClamdRawTransport(options.clamdHost(), options.clamdPort(), Harness.CLAMD_SESSIONS)) {
      Harness.sizes(
          0,
          options,
          report,
          raw,
          "clamd",
          "raw 8 sessions",
          options.sizes(),
          size -> Harness.CLAMD_SESSIONS);
    }
    try (Transport client = new ScannerTransport(options.clamdHost(), options.clamdPort(), 4)) {
      Harness.sizes(
          0, options, report, client, "clamd", "ClamdScanner 4 thr", options.sizes(), size -> 4);
    }
  }

  /** What is measured on a running echo server. */
  private interface EchoMeasurement {
    void run(long pid, Transport driver) throws InterruptedException;
  }

  void amqpEcho(String queueType, boolean persistent, String variant, List<Integer> sizes)
      throws Exception {
    amqpEcho(queueType, persistent, false, variant, echoSizes("rabbitmq-echo", variant, sizes));
  }

  void jmsEcho(String mode, boolean persistent, String variant, List<Integer> sizes)
      throws Exception {
    jmsEcho(mode, persistent, false, variant, echoSizes("artemis-echo", variant, sizes));
  }

  /** Short JIT warm-up, then a closed loop at each size. */
  private EchoMeasurement echoSizes(String target, String variant, List<Integer> sizes) {
    return (pid, driver) -> {
      Harness.jitWarmup(driver, options.jitWarmup().dividedBy(3), sizes);
      Harness.sizes(pid, options, report, driver, target, variant, sizes, Options::window);
    };
  }

  /**
   * After a gateway's history-on run: its transport's echo (as in the echo phase) in an open loop
   * at the rate of the gateway's half-load cell, so that the gateway's p99 there has the broker's
   * own p99 at the same offered rate next to it. The echo gets the gateway's JIT warm-up, not the
   * echo phase's shorter one, so that neither p99 includes more compilation than the other.
   */
  private void echoAtHalfLoad(GatewayFigures.Via via) throws Exception {
    var max = report.find(via.gateway(), GatewayFigures.HISTORY_ON, 1024);
    var half = report.halfLoad(via.gateway(), GatewayFigures.HISTORY_ON, 1024);
    if (max.isEmpty() || half.isEmpty()) {
      return;
    }
    double rate = options.halfLoadRate(max.get());
    Cell gatewayHalf = half.get();
    String variant = GatewayRuns.atRate(via.echoVariant, rate);
    EchoMeasurement atRate =
        (pid, driver) -> {
          Harness.jitWarmup(driver, options.jitWarmup());
          LoadRun run = LoadRun.oneKib(pid, driver, options);
          Cell echo = run.openLoop(via.echoTarget, variant, rate);
          report.cell(echo);
          double burn = options.echoBurn(gatewayHalf, echo);
          if (burn > 0) {
            String burned = variant + String.format(Locale.ROOT, "+burn%.2f", burn);
            report.note(
                "# the echo again, with %.2f cores kept busy (%s)",
                burn,
                options.echoBurn() == Options.MATCH_BURN
                    ? "the gateway's half-load cell's cores less the echo's"
                    : "--echo-burn");
            try (Burner burner = Burner.start(burn)) {
              report.cell(run.openLoop(via.echoTarget, burned, rate));
            }
          }
        };
    durableEcho(via, false, variant, atRate);
    if (options.clamdAtHalfLoad()) {
      clamdAtRate(rate);
    }
    if (options.echoHistory()) {
      String withHistory = variant + "+history";
      EchoMeasurement historyAtRate =
          (pid, driver) -> {
            Harness.jitWarmup(driver, options.jitWarmup());
            report.cell(
                LoadRun.oneKib(pid, driver, options).openLoop(via.echoTarget, withHistory, rate));
          };
      durableEcho(via, true, withHistory, historyAtRate);
    }
  }

  /** {@code via}'s echo as the echo phase runs it (quorum queue, persistent journal). */
  private void durableEcho(
      GatewayFigures.Via via, boolean history, String variant, EchoMeasurement measurement)
      throws Exception {
    if (via == GatewayFigures.Via.AMQP) {
      amqpEcho("quorum", true, history, variant, measurement);
    } else {
      jmsEcho("persistent", true, history, variant, measurement);
    }
  }

  /**
   * clamd through the gateway's client, 4 threads, in an open loop at {@code rate}: from one shared
   * line, and with requests dealt to the threads in turn as to a gateway's consumers. The tail of
   * the scans alone at the gateway's half-load rate.
   */
  private void clamdAtRate(double rate) throws InterruptedException {
    for (boolean dealt : new boolean[] {false, true}) {
      String variant =
          GatewayRuns.atRate(dealt ? "ClamdScanner 4 thr dealt" : "ClamdScanner 4 thr", rate);
      report.note("# clamd alone (%s), load average %s", variant, Report.loadAverage());
      try (Transport client =
          new ScannerTransport(options.clamdHost(), options.clamdPort(), 4, dealt)) {
        Harness.jitWarmup(client, options.jitWarmup().dividedBy(3), List.of(1024));
        report.cell(LoadRun.oneKib(0, client, options).openLoop("clamd", variant, rate));
      }
    }
  }

  private void amqpEcho(
      String queueType,
      boolean persistent,
      boolean history,
      String variant,
      EchoMeasurement measurement)
      throws Exception {
    report.note("# RabbitMQ echo (%s), load average %s", variant, Report.loadAverage());
    Path log = options.work().resolve("echo-amqp.log");
    try (ChildJvm echo =
        new ChildJvm(
            EchoServer.class.getName(),
            List.of("-Xmx2g"),
            List.of(
                "amqp",
                options.rabbitHost(),
                String.valueOf(options.rabbitPort()),
                ECHO_QUEUE,
                queueType,
                history ? "history" : "plain"),
            log)) {
      if (!echo.awaitReady(Duration.ofSeconds(60))) {
        report.note("# RabbitMQ echo did not start; see %s", log);
        return;
      }
      try (Transport driver =
          new AmqpTransport(
              options.rabbitHost(), options.rabbitPort(), ECHO_QUEUE, 4, persistent)) {
        measurement.run(echo.pid(), driver);
      }
    }
  }

  private void jmsEcho(
      String mode, boolean persistent, boolean history, String variant, EchoMeasurement measurement)
      throws Exception {
    report.note("# Artemis echo (%s), load average %s", variant, Report.loadAverage());
    Path data = options.work().resolve("artemis-echo");
    GatewayRuns.deleteTree(data);
    Path log = options.work().resolve("echo-jms.log");
    try (ChildJvm echo =
        new ChildJvm(
            EchoServer.class.getName(),
            List.of("-Xmx2g"),
            List.of(
                "jms",
                artemisUrl(),
                data.toString(),
                ECHO_QUEUE,
                mode,
                history ? "history" : "plain"),
            log)) {
      if (!echo.awaitReady(Duration.ofSeconds(60))) {
        report.note("# Artemis echo did not start; see %s", log);
        return;
      }
      try (Transport driver =
          new JmsTransport(artemisUrl(), ECHO_QUEUE, JmsTransport.PRODUCERS, persistent)) {
        measurement.run(echo.pid(), driver);
      }
    }
  }

  /** Durable vs non-durable at 1 KiB: brokers and gateways, history on. */
  private void durability() throws Exception {
    List<Integer> small = List.of(1024);
    amqpEcho("classic", false, "echo classic transient", small);
    jmsEcho("transient", false, "echo non-persistent", small);
    GatewayRuns gateways = new GatewayRuns(options, report);
    gateways.run(
        GatewayRuns.Kind.AMQP,
        true,
        "classic transient",
        List.of(
            "--avgateway.amqp.queue-type=classic",
            "--avgateway.amqp.request-queue=av.perf.requests.classic",
            "--avgateway.amqp.dead-letter-queue=av.perf.dead-letters.classic",
            "--avgateway.amqp.dead-letter-exchange=av.perf.dlx.classic"),
        false,
        small);
    if (GatewayRuns.jmsAvailable()) {
      gateways.run(
          GatewayRuns.Kind.JMS,
          true,
          "non-persistent",
          List.of("--avgateway.jms.embedded.persistent=false"),
          false,
          small);
    }
  }

  String artemisUrl() {
    return "tcp://127.0.0.1:" + options.artemisPort();
  }
}
