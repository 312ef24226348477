package io.github.avgateway.load.history;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The history scale benchmark's command line (picocli): every flag load-tests/README.md and
 * history-scale.sh document, with its name and meaning; {@code --help} prints them. Sizes take a
 * {@code k} or {@code M} suffix ({@code 250k}, {@code 1M}).
 */
@Command(
    name = "load-tests/history-scale.sh",
    sortOptions = false,
    usageHelpWidth = 100,
    description = "Fills a history to each checkpoint and measures it there.",
    footer = {
      "",
      "history-scale.sh also takes --no-build (run the jars already installed). Needs RabbitMQ",
      "on 127.0.0.1:5672 (the script starts it) and root to drop the page cache."
    })
final class ScaleCommand {

  @Option(names = "--help", usageHelp = true, description = "print these options and exit")
  boolean help;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description =
          "the Solr home, the state and the logs, kept between runs so that a run continues the index (load-tests/target/history-scale)")
  Path dir;

  @Option(names = "--raw", paramLabel = "DIR", description = "raw results (perf-notes/raw)")
  Path raw;

  @Option(
      names = "--checkpoints",
      paramLabel = "SIZES",
      description = "sizes to measure at, in order (1M,10M,30M,100M)")
  String checkpoints = "1M,10M,30M,100M";

  @Option(names = "--ingest", paramLabel = "SIZE", description = "documents per ingest window (1M)")
  String ingest = "1M";

  @Option(
      names = "--docs-per-message",
      paramLabel = "N",
      description = "documents per history message (16, an AMQP batch)")
  int docsPerMessage = 16;

  @Option(names = "--warm", paramLabel = "N", description = "timed calls per query warm (50)")
  int warm = 50;

  @Option(
      names = "--cold-rounds",
      paramLabel = "N",
      description = "restarts of Solr and the indexer for the cold calls (3)")
  int coldRounds = 3;

  @Option(
      names = "--drop-caches",
      arity = "0..1",
      paramLabel = "BOOLEAN",
      description = "drop the page cache before each cold round (true; needs root)")
  boolean dropCaches = true;

  @Option(names = "--fill-threads", paramLabel = "N", description = "writer threads (2)")
  int fillThreads = 2;

  @Option(names = "--solr-heap", paramLabel = "SIZE", description = "Solr's -Xmx (6g)")
  String solrHeap = "6g";

  @Option(names = "--indexer-heap", paramLabel = "SIZE", description = "the indexer's -Xmx (1g)")
  String indexerHeap = "1g";

  @Option(
      names = "--fill-only",
      arity = "0..1",
      description = "fill to the checkpoints without measuring")
  boolean fillOnly;

  @Option(
      names = "--queries-only",
      arity = "0..1",
      description = "measure size and queries only (no purge, no ingest: the index keeps its size)")
  boolean queriesOnly;

  @Option(
      names = "--ingest-only",
      arity = "0..1",
      description = "measure size and the two ingest windows only (no queries, no purges)")
  boolean ingestOnly;

  @Option(
      names = "--feedback",
      arity = "0..1",
      description = "at the last checkpoint, the retention feedback holding the store's size")
  boolean feedback;

  @Option(
      names = "--jfr",
      arity = "0..1",
      description =
          "a CPU profile (Java Flight Recorder) of the indexer and of Solr during each ingest window, recordings under DIR/profiles")
  boolean jfr;

  @Option(
      names = "--settle-merges",
      arity = "0..1",
      description =
          "before the ingest windows, let the merges the fill left due finish (default true; the"
              + " merges each window leaves due are printed after it)")
  boolean settleMerges = true;

  @Option(names = "--rabbit-host", paramLabel = "HOST", description = "RabbitMQ (127.0.0.1)")
  String rabbitHost = "127.0.0.1";

  @Option(names = "--rabbit-port", paramLabel = "PORT", description = "RabbitMQ (5672)")
  int rabbitPort = 5672;

  /**
   * The options of {@code args}; relative defaults resolve against {@code repo}.
   *
   * @throws IllegalArgumentException for an unknown flag, a value that does not parse, or flags
   *     that exclude each other
   */
  static ScaleOptions parse(String[] args, Path repo) {
    ScaleCommand command = new ScaleCommand();
    try {
      new CommandLine(command).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (command.queriesOnly && command.ingestOnly) {
      throw new IllegalArgumentException("--queries-only and --ingest-only exclude each other");
    }
    return command.options(repo);
  }

  /** Prints the flags when {@code args} ask for {@code --help}; true when it did. */
  static boolean helpAsked(String[] args, PrintStream out) {
    if (!Arrays.asList(args).contains("--help")) {
      return false;
    }
    new CommandLine(new ScaleCommand()).usage(out);
    return true;
  }

  private ScaleOptions options(Path repo) {
    return new ScaleOptions(
        repo,
        dir != null ? dir : repo.resolve("load-tests/target/history-scale"),
        raw != null ? raw : repo.resolve("perf-notes/raw"),
        ScaleOptions.sizes(checkpoints),
        ScaleOptions.size(ingest),
        docsPerMessage,
        warm,
        coldRounds,
        dropCaches,
        fillThreads,
        solrHeap,
        indexerHeap,
        fillOnly,
        queriesOnly,
        ingestOnly,
        feedback,
        jfr,
        settleMerges,
        rabbitHost,
        rabbitPort);
  }
}
