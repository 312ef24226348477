package io.github.avgateway.load.harness;

import io.github.avgateway.load.Payloads;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The harness' command line (picocli): every flag load-tests/README.md and perf-harness.sh
 * document, with its name and meaning; {@code --help} prints them. {@link #options()} resolves the
 * defaults that depend on other flags ({@code --smoke}, {@code --quick}, {@code --payload}).
 */
@Command(
    name = "load-tests/perf-harness.sh",
    sortOptions = false,
    usageHelpWidth = 100,
    description = "The one-run perf harness: clamd alone, each broker's echo, the gateways.",
    footer = {
      "",
      "perf-harness.sh also takes --no-build (run the jars already installed). Needs clamd on",
      "127.0.0.1:3310 and RabbitMQ on 127.0.0.1:5672 (scripts/services.sh start)."
    })
final class HarnessCommand {

  @Option(names = "--help", usageHelp = true, description = "print these options and exit")
  boolean help;

  @Option(names = "--quick", description = "2 s warm-up + 5 s per cell instead of 3 s + 10 s")
  boolean quick;

  @Option(
      names = "--smoke",
      description =
          "checks that the harness works, measures nothing worth quoting: 1 KiB only, 1 s per cell, raw results in the run's directory; exits non-zero when a cell is missing or failed")
  boolean smoke;

  @Option(names = "--warmup", paramLabel = "SECONDS", description = "warm-up per cell")
  Long warmup;

  @Option(names = "--measure", paramLabel = "SECONDS", description = "measurement per cell")
  Long measure;

  @Option(names = "--sizes", paramLabel = "1k,64k,1m,10m", description = "payload sizes")
  String sizes;

  @Option(
      names = "--only",
      split = ",",
      paramLabel = "PHASES",
      description =
          "clamd, amqp-echo, jms-echo, amqp, jms, durability, cold; amqp-on and jms-on run only the gateway's history-on cells")
  List<String> only;

  @Option(names = "--skip", split = ",", paramLabel = "PHASES", description = "phases left out")
  List<String> skip = new ArrayList<>();

  @Option(
      names = "--soak",
      arity = "0..1",
      fallbackValue = "1000000",
      paramLabel = "N",
      description = "instead: N (1,000,000) small requests through the AMQP gateway")
  Long soak;

  @Option(names = "--soak-max-minutes", paramLabel = "MINUTES", description = "bounds the soak")
  long soakMaxMinutes = 40;

  @Option(
      names = "--gateway-arg",
      paramLabel = "--KEY=VALUE",
      description = "extra gateway property (repeatable)")
  List<String> gatewayArgs = new ArrayList<>();

  @Option(
      names = "--gateway-jvm-arg",
      paramLabel = "OPTION",
      description =
          "extra JVM option of the size cells' gateways (repeatable; after -Xmx2g -XX:+UseParallelGC)")
  List<String> gatewayJvmArgs = new ArrayList<>();

  @Option(names = "--jfr", description = "record a JFR profile of every gateway JVM")
  boolean jfr;

  @Option(
      names = "--jit-warmup",
      paramLabel = "SECONDS",
      description = "unmeasured load on each new JVM before its cells (20; 15 with --quick)")
  Long jitWarmup;

  @Option(
      names = "--jit-settle",
      paramLabel = "PERCENT",
      description =
          "after --jit-warmup, 1 KiB load in 5 s steps until the gateway's JIT uses < PERCENT %% of"
              + " a core (at most 180 s)")
  double jitSettle;

  @Option(
      names = "--baseline",
      paramLabel = "DIR",
      description = "a checkout of another commit with its jars built, run after each gateway")
  Path baseline;

  @Option(
      names = "--payload",
      paramLabel = "random|eicar-same",
      description = "eicar-same: instead of every other phase, the same EICAR --requests times")
  String payload = "random";

  @Option(names = "--requests", paramLabel = "N", description = "eicar-same requests (10001)")
  long requests = 10_001;

  @Option(names = "--variant", paramLabel = "NAME", description = "what this run is (plain)")
  String variant = "plain";

  @Option(
      names = "--half-rate",
      paramLabel = "N",
      description = "offered rate of the half-load cells (default: half of each maximum)")
  double halfRate;

  @Option(
      names = "--echo-burn",
      paramLabel = "CORES|match",
      description = "a second half-load echo run with CORES kept busy")
  String echoBurn = "0";

  @Option(names = "--echo-history", description = "each echo once more with history traffic")
  boolean echoHistory;

  @Option(names = "--clamd-at-half", description = "clamd alone at each half-load rate")
  boolean clamdAtHalf;

  @Option(names = "--trace", description = "AMQP half-load requests taken apart per request")
  boolean trace;

  @Option(names = "--tracing", paramLabel = "URL", description = "a Zipkin span endpoint")
  String tracing;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      description =
          "each gateway's JVMs (history-on, baseline, tracing, history-off) run N times, every"
              + " second round in reverse order (1)")
  int rounds = 1;

  /**
   * The options of {@code args}.
   *
   * @throws IllegalArgumentException for an unknown flag or a value that does not parse
   */
  static Options parse(String[] args) {
    HarnessCommand command = new HarnessCommand();
    try {
      commandLine(command).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return command.options();
  }

  /** Prints the flags when {@code args} ask for {@code --help}; true when it did. */
  static boolean helpAsked(String[] args, PrintStream out) {
    if (!Arrays.asList(args).contains("--help")) {
      return false;
    }
    commandLine(new HarnessCommand()).usage(out);
    return true;
  }

  private static CommandLine commandLine(HarnessCommand command) {
    return new CommandLine(command);
  }

  Options options() {
    return new Options(
        seconds(warmup, smoke ? 1 : quick ? 2 : 3),
        seconds(measure, smoke ? 1 : quick ? 5 : 10),
        sizeList(),
        phases(),
        soak != null ? soak : 1_000_000,
        Duration.ofMinutes(soakMaxMinutes),
        List.copyOf(gatewayArgs),
        List.copyOf(gatewayJvmArgs),
        jfr,
        seconds(jitWarmup, smoke ? 1 : quick ? 15 : 20),
        jitSettle,
        payload(),
        requests,
        LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")),
        smoke,
        baseline == null ? null : baseline.toAbsolutePath().normalize(),
        variant.isBlank() ? "plain" : variant.strip(),
        halfRate,
        echoBurn.equals("match") ? Options.MATCH_BURN : Double.parseDouble(echoBurn),
        echoHistory,
        clamdAtHalf,
        trace,
        tracing,
        Math.max(1, rounds),
        Path.of(System.getProperty("harness.repo", ".")).toAbsolutePath().normalize(),
        System.getProperty("clamd.host", "127.0.0.1"),
        Integer.getInteger("clamd.port", 3310),
        System.getProperty("rabbitmq.host", "127.0.0.1"),
        Integer.getInteger("rabbitmq.port", 5672),
        Integer.getInteger("artemis.port", 61716));
  }

  private static Duration seconds(Long given, long otherwise) {
    return Duration.ofSeconds(given != null ? given : otherwise);
  }

  private List<Integer> sizeList() {
    if (sizes != null) {
      return Arrays.stream(sizes.split(",")).map(Payloads::parseSize).toList();
    }
    return smoke ? List.of(1024) : List.of(1024, 64 * 1024, 1024 * 1024, 10 * 1024 * 1024);
  }

  /** --payload=eicar-same, then --soak, replace every other phase; else --only or the defaults. */
  private Set<String> phases() {
    if (payload().equals(EicarSame.PHASE)) {
      return Set.of(EicarSame.PHASE);
    }
    if (soak != null) {
      return Set.of("soak");
    }
    Set<String> phases =
        new HashSet<>(only != null ? only : smoke ? Options.SMOKE_PHASES : Options.DEFAULT_PHASES);
    phases.removeAll(skip);
    return phases;
  }

  private String payload() {
    if (!payload.equals("random") && !payload.equals(EicarSame.PHASE)) {
      throw new IllegalArgumentException("--payload is random or eicar-same, not " + payload);
    }
    return payload;
  }
}
