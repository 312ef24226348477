package io.github.avgateway.load.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Harness options, from {@code --name=value} arguments ({@link HarnessCommand} parses them).
 *
 * @param warmup per cell, before measuring
 * @param measure per cell
 * @param sizes payload sizes in bytes
 * @param phases which phases run: clamd, amqp-echo, jms-echo, amqp, amqp-on, jms, jms-on,
 *     durability, cold, soak
 * @param soakRequests requests in the soak
 * @param soakMax the longest the soak may run
 * @param gatewayArgs extra {@code --key=value} arguments for every gateway (tuning experiments)
 * @param gatewayJvmArgs extra JVM options for every gateway JVM of the size cells ({@code
 *     --gateway-jvm-arg=-Xlog:gc:file=gc.log}), after the harness' own ({@code
 *     GatewayRuns.GATEWAY_JVM})
 * @param jfr record a JFR profile of each gateway JVM
 * @param jitWarmup unmeasured load on each new gateway or echo JVM before its cells, so that the
 *     cells measure compiled code (the first seconds are measured separately, as "cold")
 * @param jitSettle after {@code jitWarmup}, each gateway JVM of the size cells is warmed up further
 *     until its JIT threads use less than this percentage of one core ({@link JitSettle}); 0 (the
 *     default) for no more than {@code jitWarmup}
 * @param payload {@code random} (the size cells) or {@code eicar-same}: instead of every other
 *     phase, the AVS workload of {@link EicarSame}
 * @param requests how many requests the {@code eicar-same} workload sends per gateway variant
 * @param stamp this run's time stamp, naming its raw results and work directory
 * @param smoke a check that the harness still works, not a measurement: one size, a second per
 *     cell, raw results in the run's work directory, and a non-zero exit when a cell is missing or
 *     a request failed (see {@link SmokeCheck})
 * @param baseline a checkout of another commit with its runnable jars built, whose gateways run
 *     with history on after this build's in the same invocation (variant {@code
 *     baseline-history-on}); null for none
 * @param variant what this run is ({@code --variant=NAME}, "plain" by default): named in its raw
 *     file's first and last lines and in the gateway figures' headings, so that the raw files of a
 *     series say which is which
 * @param halfRate the offered rate of the half-load cells ({@code --half-rate=N}, requests/s), the
 *     same for this build's gateway, the baseline's and the echo; 0 (the default) for half of each
 *     gateway's own maximum. A fixed rate compares two builds' tails at the same load.
 * @param echoBurn cores kept busy ({@link Burner}) during a second run of each echo at the
 *     half-load rate ({@code --echo-burn=CORES}, variant {@code ...+burnCORES}); {@link
 *     #MATCH_BURN} ({@code --echo-burn=match}) for as many as the gateway's half-load cell kept
 *     busy beyond the echo's plain run; 0 (the default) for none. The targets use the plain run.
 * @param echoHistory run each echo at the half-load rate once more, with the gateway's history
 *     traffic on its broker ({@code --echo-history}, variant {@code ...+history}; {@link AmqpEcho},
 *     {@link JmsEcho}): the tail of the broker work the guarantees ask for, without scanning. The
 *     targets use the plain run.
 * @param clamdAtHalfLoad after each echo's half-load run, clamd alone through the gateway's client
 *     at the same rate, open loop ({@code --clamd-at-half}, variants {@code ClamdScanner 4
 *     thr @RATE} and {@code ... dealt @RATE}): the tail of the scans alone.
 * @param trace take each AMQP gateway's half-load requests apart at the moment of their verdict
 *     ({@code --trace}, {@link RequestTrace}): send → scanned → reply received, printed after the
 *     cell
 * @param tracing a Zipkin span endpoint ({@code --tracing=URL}): after each gateway's history-on
 *     run, a new gateway JVM of the same build runs the same cells with tracing on, 10 % of new
 *     traces sampled and exported there (variant {@code tracing-10pct}); null for none
 * @param rounds how many times each gateway's JVMs of the size cells run, in turn ({@code
 *     --rounds=N}: history-on, the baseline's, tracing on, history-off, then the same in the
 *     reverse order, and so on, with " #2" and so on after the variant), so that drift of the
 *     machine over minutes falls on each of them alike; 1 by default
 */
record Options(
    Duration warmup,
    Duration measure,
    List<Integer> sizes,
    Set<String> phases,
    long soakRequests,
    Duration soakMax,
    List<String> gatewayArgs,
    List<String> gatewayJvmArgs,
    boolean jfr,
    Duration jitWarmup,
    double jitSettle,
    String payload,
    long requests,
    String stamp,
    boolean smoke,
    Path baseline,
    String variant,
    double halfRate,
    double echoBurn,
    boolean echoHistory,
    boolean clamdAtHalfLoad,
    boolean trace,
    String tracing,
    int rounds,
    Path repo,
    String clamdHost,
    int clamdPort,
    String rabbitHost,
    int rabbitPort,
    int artemisPort) {

  static final Set<String> DEFAULT_PHASES =
      Set.of("clamd", "amqp-echo", "jms-echo", "amqp", "jms", "durability", "cold");

  /** What {@code --smoke} runs: every phase that the ratios need, at one size. */
  static final Set<String> SMOKE_PHASES = Set.of("clamd", "amqp-echo", "jms-echo", "amqp", "jms");

  /** The options of {@code args} ({@link HarnessCommand}: picocli, {@code --help} lists them). */
  static Options parse(String[] args) {
    return HarnessCommand.parse(args);
  }

  /** {@code --echo-burn=match}: burn what the gateway's half-load cell used beyond the echo. */
  static final double MATCH_BURN = -1;

  /**
   * The cores to keep busy during the echo's second half-load run, after its plain run {@code echo}
   * and the gateway's half-load cell {@code gatewayHalf} at the same rate (their whole machine's
   * CPU, "total", per request); 0 for no second run.
   */
  double echoBurn(Cell gatewayHalf, Cell echo) {
    if (echoBurn != MATCH_BURN) {
      return Math.max(0, echoBurn);
    }
    double rate = echo.offeredRate();
    double gatewayCores = gatewayHalf.cpuMicros("total") * gatewayHalf.offeredRate() / 1e6;
    double echoCores = echo.cpuMicros("total") * rate / 1e6;
    double burn = Math.round((gatewayCores - echoCores) * 100) / 100.0;
    return burn > 0 ? burn : 0;
  }

  /** The offered rate of the half-load cells after closed-loop cell {@code max}. */
  double halfLoadRate(Cell max) {
    return halfRate > 0 ? halfRate : Math.max(1, max.perSecond() / 2);
  }

  /** The cells a {@code --smoke} run must have (target, variant). */
  List<List<String>> smokeCells() {
    return phases.contains(EicarSame.PHASE)
        ? EicarSame.required(GatewayRuns.jmsAvailable())
        : SmokeCheck.REQUIRED;
  }

  /** Requests in flight in a closed loop: enough to keep every consumer busy, bounded in bytes. */
  static int window(int size) {
    if (size <= 4 * 1024) {
      return 128;
    }
    if (size <= 256 * 1024) {
      return 64;
    }
    return size <= 2 * 1024 * 1024 ? 16 : 8;
  }

  /** The clamd the gateways scan through, as {@code avgateway.clamd.endpoints} names it. */
  String clamdEndpoint() {
    return clamdHost + ":" + clamdPort;
  }

  /**
   * The raw results file: {@code perf-notes/raw/harness-STAMP.txt}, or for a smoke run, which
   * measures nothing worth keeping, {@code harness.txt} in the run's work directory.
   */
  Path rawFile() {
    return smoke
        ? work().resolve("harness.txt")
        : repo.resolve("perf-notes/raw/harness-" + stamp + ".txt");
  }

  /** How long a new gateway JVM's first seconds are measured as the "cold" cell. */
  Duration coldWindow() {
    return smoke ? measure : Duration.ofSeconds(10);
  }

  /** This run's own directory for logs, Solr and Artemis data: never shared with another run. */
  Path work() {
    return repo.resolve("load-tests/target/harness/run-" + stamp);
  }

  /**
   * The baseline checkout's runnable jar of a front-end ({@code gateway-amqp/target/*-exec.jar}).
   *
   * @throws IllegalStateException when it was not built
   */
  Path baselineJar(String module) {
    Path target = baseline.resolve(module).resolve("target");
    try (var jars = java.nio.file.Files.list(target)) {
      return jars.filter(p -> p.getFileName().toString().endsWith("-exec.jar"))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no runnable jar in " + target));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(
          "no runnable jar in " + target + ": build the baseline checkout first", e);
    }
  }
}
