package io.github.avgateway.load.harness;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.load.Payloads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Runs one gateway configuration in a child JVM and measures it: cold start to first reply, the
 * closed-loop maximum at each size, and at 1 KiB the latency of an open loop at half that maximum.
 */
final class GatewayRuns {

  enum Kind {
    AMQP,
    JMS
  }

  /** What is measured once a gateway answered its first request (and before it is stopped). */
  interface Measurement {
    void run(long pid, Transport driver, String target, String variant) throws Exception;
  }

  static final String REQUEST_QUEUE = "av.perf.requests";

  /**
   * The AMQP gateways' history queue: the harness' own, never the default {@code av.history}, so
   * that a run whose gateway does not index ({@code
   * --gateway-arg=--avgateway.history.indexer.enabled=false}) leaves no backlog for the next
   * gateway on that broker to drain; deleted before and after each gateway.
   */
  static final String HISTORY_QUEUE = "av.perf.history";

  /** The dead-letter queue of {@link #HISTORY_QUEUE}. */
  static final String HISTORY_DEAD_LETTERS = HISTORY_QUEUE + ".dead-letters";

  /**
   * The collector that scripts/run.sh and docker/Dockerfile start the gateway with, and so every
   * gateway JVM the harness and the scale-out run start: the parallel one (at 1 MiB G1 cost 1.2–1.5
   * ms of CPU per MiB against its 0.03–0.06, perf-notes/gateway.md round 14).
   */
  static final String COLLECTOR = "-XX:+UseParallelGC";

  /** The JVM options of every gateway the harness starts: a 2 GiB heap and {@link #COLLECTOR}. */
  static final List<String> GATEWAY_JVM = List.of("-Xmx2g", COLLECTOR);

  private static final Duration COLD_START_LIMIT = Duration.ofSeconds(120);

  /** How long the cold start waits for an answer before it sends its request again. */
  private static final Duration RESEND_AFTER = Duration.ofSeconds(3);

  private final Options options;
  private final Report report;

  GatewayRuns(Options options, Report report) {
    this.options = options;
    this.report = report;
  }

  static boolean jmsAvailable() {
    try {
      Class.forName("io.github.avgateway.jms.GatewayJmsApplication");
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** Starts the gateway, measures it, stops it. */
  void run(
      Kind kind,
      boolean history,
      String variant,
      List<String> extraArgs,
      boolean durable,
      List<Integer> sizes)
      throws Exception {
    measure(kind, history, variant, extraArgs, durable, null, sizeCells(sizes));
  }

  /**
   * Starts the gateway with history on (its default), runs {@code measurement} instead of the size
   * cells, stops it.
   */
  void run(Kind kind, String variant, List<String> extraArgs, Measurement measurement)
      throws Exception {
    measure(kind, true, variant, extraArgs, true, null, measurement);
  }

  /**
   * The baseline checkout's runnable jar of {@code kind} ({@code --baseline}), history on as its
   * defaults have it, measured as this build's gateway is: variant {@code baseline-history-on}.
   */
  void runBaseline(Kind kind, List<Integer> sizes, String suffix) throws Exception {
    runBaseline(kind, "baseline-history-on" + suffix, List.of(), sizeCells(sizes));
  }

  /**
   * The baseline checkout's runnable jar of {@code kind} ({@code --baseline}), history on, given
   * {@code extraArgs}, running {@code measurement} as {@code variant}.
   */
  void runBaseline(Kind kind, String variant, List<String> extraArgs, Measurement measurement)
      throws Exception {
    Path jar = options.baselineJar("gateway-" + kind.name().toLowerCase(Locale.ROOT));
    report.note("# baseline: %s", jar);
    measure(kind, true, variant, extraArgs, true, jar, measurement);
  }

  /**
   * This build's gateway of {@code kind} with history on and tracing on ({@code --tracing}): 10 %
   * of new traces sampled (the harness' requests carry no trace context) and exported to the Zipkin
   * endpoint given; variant {@code tracing-10pct} and {@code suffix} (the round's, {@link
   * Phases#roundSuffix}).
   */
  void runTracing(Kind kind, List<Integer> sizes, String suffix) throws Exception {
    report.note("# tracing: 10 %% sampled, spans to %s", options.tracing());
    List<String> tracing =
        List.of(
            "--management.tracing.export.enabled=true",
            "--management.tracing.sampling.probability=0.1",
            "--management.tracing.export.zipkin.endpoint=" + options.tracing());
    measure(kind, true, "tracing-10pct" + suffix, tracing, true, null, sizeCells(sizes));
  }

  /**
   * @param jar a runnable jar to start instead of this build's application (its Spring arguments
   *     only, no {@code READY} line: its first reply shows it is up), or null
   */
  private void measure(
      Kind kind,
      boolean history,
      String variant,
      List<String> extraArgs,
      boolean durable,
      Path jar,
      Measurement measurement)
      throws Exception {
    String target = "gateway-" + kind.name().toLowerCase(Locale.ROOT);
    report.note("# %s %s, load average %s", target, variant, Report.loadAverage());
    String slug = target + "-" + variant.replace(' ', '-');
    Path log = options.work().resolve(slug + ".log");
    List<String> args = arguments(kind, history, slug, extraArgs);
    String queue = valueOf(args, "--avgateway.amqp.request-queue=", REQUEST_QUEUE);
    String historyQueue = valueOf(args, "--avgateway.history.queue=", HISTORY_QUEUE);
    if (kind == Kind.AMQP) {
      // A queue kept from an earlier run may have been declared with other arguments.
      deleteQueue(queue);
      deleteQueue(historyQueue);
    }
    Transport driver = kind == Kind.AMQP ? amqpDriver(queue, durable) : null;
    try (ChildJvm gateway =
        jar == null
            ? new ChildJvm(GatewayLauncher.class.getName(), jvmArgs(slug), args, log)
            : ChildJvm.jar(jar, jvmArgs(slug), args.subList(2, args.size()), log)) {
      driver = coldStart(kind, gateway, driver, durable, target, variant);
      if (driver == null || (jar == null && !gateway.awaitReady(Duration.ofSeconds(30)))) {
        report.note("# %s did not start or answer; see %s", target, log);
        return;
      }
      measurement.run(gateway.pid(), driver, target, variant);
    } finally {
      if (driver != null) {
        driver.close();
      }
      if (kind == Kind.AMQP) {
        deleteQueue(historyQueue);
        deleteQueue(valueOf(args, "--avgateway.history.dead-letter-queue=", HISTORY_DEAD_LETTERS));
      }
    }
  }

  /**
   * The cold cell, JIT warm-up, then a closed loop at each size (and half-load latency at 1 KiB).
   */
  private Measurement sizeCells(List<Integer> sizes) {
    return (pid, driver, target, variant) -> {
      coldAndWarm(pid, driver, target, variant);
      for (int size : sizes) {
        Harness.sizes(
            pid, options, report, driver, target, variant, List.of(size), Options::window);
        if (size == 1024) {
          halfLoadLatency(pid, driver, target, variant);
        }
      }
    };
  }

  /**
   * Starts a runnable jar once: cold start to first reply; then, for a training run, {@code
   * requests} more 1 KiB requests before it is stopped (its AOT cache is written at exit).
   */
  void startOnce(Kind kind, String variant, Path jar, List<String> jvmExtra, int requests)
      throws Exception {
    String target = "gateway-" + kind.name().toLowerCase(Locale.ROOT);
    String slug = target + "-" + variant.replace(' ', '-').replace("+", "");
    List<String> all = arguments(kind, true, slug, List.of());
    List<String> args = all.subList(2, all.size());
    String queue = valueOf(args, "--avgateway.amqp.request-queue=", REQUEST_QUEUE);
    if (kind == Kind.AMQP) {
      purge(queue);
      purge(valueOf(args, "--avgateway.history.queue=", HISTORY_QUEUE));
    }
    List<String> jvm = new ArrayList<>(GATEWAY_JVM);
    jvm.addAll(jvmExtra);
    Transport driver = kind == Kind.AMQP ? amqpDriver(queue, true) : null;
    try (ChildJvm gateway = ChildJvm.jar(jar, jvm, args, options.work().resolve(slug + ".log"))) {
      driver = coldStart(kind, gateway, driver, true, target, variant);
      if (driver != null && requests > 0) {
        for (int i = 0; i < requests; i++) {
          driver.send(Payloads.random(1024, i)).get(60, TimeUnit.SECONDS);
        }
      }
    } finally {
      if (driver != null) {
        driver.close();
      }
    }
  }

  private List<String> arguments(Kind kind, boolean history, String slug, List<String> extra)
      throws IOException {
    List<String> args = new ArrayList<>();
    args.add(kind.name().toLowerCase(Locale.ROOT));
    args.add(history ? "on" : "off");
    args.addAll(extra);
    args.addAll(options.gatewayArgs());
    Path solr = options.work().resolve("solr-" + slug);
    deleteTree(solr);
    addDefault(args, "--avgateway.solr.embedded.home=", solr.toString());
    addDefault(args, "--avgateway.clamd.endpoints=", options.clamdEndpoint());
    addDefault(args, "--spring.main.banner-mode=", "off");
    // The gateways serve the history page; a run never needs it and must not hold the gateways'
    // default ports.
    addDefault(args, "--server.port=", "0");
    addDefault(
        args,
        "--logging.config=",
        options.repo().resolve("load-tests/src/main/resources/logback-gateway.xml").toString());
    if (kind == Kind.AMQP) {
      addDefault(args, "--spring.rabbitmq.host=", options.rabbitHost());
      addDefault(args, "--spring.rabbitmq.port=", String.valueOf(options.rabbitPort()));
      addDefault(args, "--avgateway.amqp.request-queue=", REQUEST_QUEUE);
      addDefault(args, "--avgateway.amqp.dead-letter-queue=", "av.perf.dead-letters");
      addDefault(args, "--avgateway.amqp.dead-letter-exchange=", "av.perf.dlx");
      addDefault(args, "--avgateway.history.queue=", HISTORY_QUEUE);
      addDefault(args, "--avgateway.history.dead-letter-queue=", HISTORY_DEAD_LETTERS);
    } else {
      Path artemis = options.work().resolve("artemis-" + slug);
      deleteTree(artemis);
      addDefault(args, "--avgateway.jms.url=", artemisUrl());
      addDefault(args, "--avgateway.jms.embedded.data-dir=", artemis.toString());
      addDefault(args, "--avgateway.jms.request-queue=", REQUEST_QUEUE);
    }
    return args;
  }

  private List<String> jvmArgs(String slug) {
    List<String> jvm = new ArrayList<>(GATEWAY_JVM);
    jvm.addAll(options.gatewayJvmArgs());
    if (options.jfr()) {
      jvm.add("-XX:FlightRecorderOptions:stackdepth=256");
      jvm.add(
          "-XX:StartFlightRecording=settings=profile,filename="
              + options.work().resolve(slug + ".jfr"));
    }
    String heapLog = System.getProperty("harness.gatewayHeapLog");
    if (heapLog != null) {
      jvm.add("-Dharness.heapLog=" + heapLog);
    }
    return jvm;
  }

  /**
   * Sends one 1 KiB request from the moment the JVM was spawned until one is answered (AMQP: the
   * request waits in the queue, re-sent while the queue does not exist yet; JMS: the broker lives
   * in the gateway, so the driver connects as soon as it accepts). A request unanswered after
   * {@link #RESEND_AFTER} is sent again and the first answer to any of them counts: the driver
   * publishes without confirms, so a request the broker drops (around the queue's deletion and the
   * gateway's declaration of it) is never reported. Twice in round 12 the first request went
   * unanswered while the gateway's consumers waited on an empty request queue, and the run waited
   * out the whole limit. Returns the driver, or null.
   */
  private Transport coldStart(
      Kind kind, ChildJvm gateway, Transport amqp, boolean durable, String target, String variant)
      throws InterruptedException {
    long deadline = gateway.spawnedNanos + COLD_START_LIMIT.toNanos();
    Transport driver = amqp;
    byte[] payload = Payloads.random(1024, 1);
    List<CompletableFuture<Verdict>> sent = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      try {
        if (driver == null) {
          driver = new JmsTransport(artemisUrl(), REQUEST_QUEUE, JmsTransport.PRODUCERS, durable);
        }
        sent.removeIf(CompletableFuture::isCompletedExceptionally);
        sent.add(driver.send(payload));
        long wait = Math.min(deadline - System.nanoTime(), RESEND_AFTER.toNanos());
        Verdict verdict =
            (Verdict)
                CompletableFuture.anyOf(sent.toArray(CompletableFuture[]::new))
                    .get(wait, TimeUnit.NANOSECONDS);
        double millis = (System.nanoTime() - gateway.spawnedNanos) / 1e6;
        report.note(
            "# %s %s: cold start to first reply %.0f ms (verdict %s, pid %d)",
            target, variant, millis, verdict, gateway.pid());
        return driver;
      } catch (ExecutionException | TimeoutException | jakarta.jms.JMSException e) {
        Thread.sleep(50);
      }
    }
    return closeAndNull(driver);
  }

  private static Transport closeAndNull(Transport driver) {
    if (driver != null) {
      driver.close();
    }
    return null;
  }

  /**
   * The first seconds after the first reply (cold JIT) as a cell; then unmeasured warm-up, and with
   * {@code --jit-settle} more of it until the JIT is nearly idle.
   */
  private void coldAndWarm(long pid, Transport driver, String target, String variant)
      throws InterruptedException {
    LoadRun cold =
        new LoadRun(
            pid,
            driver,
            Payloads.random(1024, 3),
            Verdict.CLEAN,
            Duration.ZERO,
            options.coldWindow(),
            Harness.ANSWER_TIMEOUT);
    String cold0 = String.format(Locale.ROOT, " cold 0-%ds", options.coldWindow().toSeconds());
    report.cell(cold.closedLoop(target, variant + cold0, Options.window(1024)));
    Harness.jitWarmup(driver, options.jitWarmup(), options.sizes());
    if (options.jitSettle() > 0) {
      new JitSettle(options, report).await(pid, driver, target, variant);
    }
  }

  private void halfLoadLatency(long childPid, Transport driver, String target, String variant)
      throws InterruptedException {
    report
        .find(target, variant, 1024)
        .ifPresent(max -> {
          double rate = options.halfLoadRate(max);
          LoadRun run = LoadRun.oneKib(childPid, driver, options);
          String cell = atRate(variant, rate);
          RequestTrace trace = null;
          if (options.trace() && driver instanceof AmqpTransport amqp) {
            // The open loop's measurement window, give or take the microseconds until it starts.
            long from = System.nanoTime() + options.warmup().toNanos();
            trace = new RequestTrace(from, from + options.measure().toNanos());
            amqp.trace(trace);
          }
          try {
            report.cell(run.openLoop(target, cell, rate));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            if (trace != null) {
              ((AmqpTransport) driver).trace(null);
              trace.summary(target + " " + cell).forEach(line -> report.note("%s", line));
            }
          }
        });
  }

  /** The variant of an open-loop cell at {@code rate}: {@code "history-on @1059/s"}. */
  static String atRate(String variant, double rate) {
    return String.format(Locale.ROOT, "%s @%.0f/s", variant, rate);
  }

  private Transport amqpDriver(String queue, boolean durable) throws Exception {
    return new AmqpTransport(options.rabbitHost(), options.rabbitPort(), queue, 4, durable);
  }

  /** Deletes one of the harness' own queues (absent queues are fine). */
  private void deleteQueue(String queue) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(options.rabbitHost());
    factory.setPort(options.rabbitPort());
    try (Connection connection = factory.newConnection("perf-harness-admin");
        Channel channel = connection.createChannel()) {
      channel.queueDelete(queue);
    } catch (IOException | TimeoutException | RuntimeException e) {
      // no such queue
    }
  }

  /** Empties a queue left over from an interrupted run (absent queues are fine). */
  private void purge(String queue) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(options.rabbitHost());
    factory.setPort(options.rabbitPort());
    try (Connection connection = factory.newConnection("perf-harness-admin");
        Channel channel = connection.createChannel()) {
      channel.queuePurge(queue);
    } catch (IOException | TimeoutException | RuntimeException e) {
      // no such queue yet
    }
  }

  private String artemisUrl() {
    return "tcp://127.0.0.1:" + options.artemisPort();
  }

  private static void addDefault(List<String> args, String prefix, String value) {
    if (args.stream().noneMatch(a -> a.startsWith(prefix))) {
      args.add(prefix + value);
    }
  }

  private static String valueOf(List<String> args, String prefix, String fallback) {
    return args.stream()
        .filter(a -> a.startsWith(prefix))
        .map(a -> a.substring(prefix.length()))
        .findFirst()
        .orElse(fallback);
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
