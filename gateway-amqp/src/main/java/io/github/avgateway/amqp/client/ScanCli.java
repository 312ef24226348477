package io.github.avgateway.amqp.client;

import io.github.avgateway.core.model.ScanResult;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.springframework.boot.convert.DurationStyle;

/**
 * Scans files from a terminal through a running AMQP gateway: {@code scan [--uri URI] [--queue
 * NAME] [--timeout 60s] FILE...}. Prints one line per file ({@code FILE: VERDICT [signature or
 * reason]}). Exit code: 0 all CLEAN, 1 any INFECTED, 2 any UNSCANNABLE or ERROR, 3 a file got no
 * verdict, 64 bad arguments. The URI defaults to {@code $AVGATEWAY_AMQP_URI}, else {@code
 * amqp://guest:guest@127.0.0.1:5672}; it is never printed.
 */
public final class ScanCli {

  static final String DEFAULT_URI = "amqp://guest:guest@127.0.0.1:5672";
  static final String DEFAULT_QUEUE = "av.scan.requests";

  private ScanCli() {}

  /** What the command line asked for. */
  private record Options(URI uri, String queue, Duration timeout, List<Path> files) {}

  /** Runs the command and returns its exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Options options = parse(args);
    if (options == null) {
      err.println(
          "usage: scan [--uri amqp://user:pass@host:5672/vhost] [--queue NAME]"
              + " [--timeout 60s] FILE...");
      return 64;
    }
    try (AmqpScanClient client =
        AmqpScanClient.connect(options.uri(), options.queue(), options.timeout())) {
      int code = 0;
      for (Path file : options.files()) {
        code = Math.max(code, scanOne(client, file, out, err));
      }
      return code;
    }
  }

  /** The options, or null when the arguments are not usable. */
  private static Options parse(String[] args) {
    String env = System.getenv("AVGATEWAY_AMQP_URI");
    String uri = env == null || env.isBlank() ? DEFAULT_URI : env;
    String queue = DEFAULT_QUEUE;
    Duration timeout = Duration.ofSeconds(60);
    List<Path> files = new ArrayList<>();
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--uri" -> uri = args[++i];
          case "--queue" -> queue = args[++i];
          case "--timeout" -> timeout = DurationStyle.detectAndParse(args[++i]);
          default -> files.add(Path.of(args[i]));
        }
      }
      return files.isEmpty() ? null : new Options(URI.create(uri), queue, timeout, files);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static int scanOne(AmqpScanClient client, Path file, PrintStream out, PrintStream err) {
    try {
      ScanResult result = client.scan(file).get();
      String extra =
          switch (result.verdict()) {
            case CLEAN -> "";
            case INFECTED -> " " + result.firstSignature();
            case UNSCANNABLE, ERROR -> " " + result.reason();
          };
      out.println(file + ": " + result.verdict() + extra);
      return switch (result.verdict()) {
        case CLEAN -> 0;
        case INFECTED -> 1;
        case UNSCANNABLE, ERROR -> 2;
      };
    } catch (ExecutionException e) {
      err.println(file + ": no verdict: " + e.getCause().getMessage());
      return 3;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println(file + ": interrupted");
      return 3;
    } catch (java.io.IOException e) {
      err.println(file + ": cannot read: " + e.getMessage());
      return 3;
    }
  }
}
