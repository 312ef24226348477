package io.github.avgateway.jms.client;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code scan [--url URL] [--queue NAME] [--user U --password P] [--timeout SECONDS] FILE...}:
 * sends each file to a running gateway and prints one line per file, {@code FILE: VERDICT
 * [signature | reason: detail]}. Exit status: 0 all clean, 1 something infected, 2 something
 * unscannable or in error, 3 usage or connection problems.
 */
public final class ScanCommand {

  private ScanCommand() {}

  /** Runs the command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    quietLogging();
    ScanOptions options;
    try {
      options = ScanOptions.parse(args);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(ScanOptions.USAGE);
      return 3;
    }
    try (AvScanClient client =
        AvScanClient.connect(
            options.url(),
            options.user(),
            options.password(),
            options.queue(),
            Duration.ofSeconds(options.timeoutSeconds()))) {
      int status = 0;
      for (Path file : options.files()) {
        status = Math.max(status, scanOne(client, file, out, err));
      }
      return status;
    } catch (Exception e) {
      err.println("cannot reach the gateway at " + options.url() + ": " + e.getMessage());
      return 3;
    }
  }

  private static int scanOne(AvScanClient client, Path file, PrintStream out, PrintStream err)
      throws InterruptedException {
    if (!Files.isRegularFile(file)) {
      err.println(file + ": not a file");
      return 3;
    }
    try {
      ScanResult result = client.scan(file, file.getFileName().toString()).get();
      out.println(file + ": " + describe(result));
      return switch (result.verdict()) {
        case CLEAN -> 0;
        case INFECTED -> 1;
        case UNSCANNABLE, ERROR -> 2;
      };
    } catch (ExecutionException e) {
      err.println(file + ": no verdict: " + e.getCause());
      return 3;
    }
  }

  static String describe(ScanResult result) {
    List<String> parts = new ArrayList<>(List.of(result.verdict().name()));
    if (result.verdict() == Verdict.INFECTED) {
      parts.add(String.join(", ", result.signatures()));
    } else if (result.reason() != null) {
      parts.add(result.reason() + (result.detail() == null ? "" : ": " + result.detail()));
    }
    parts.add("(" + result.sizeBytes() + " bytes, " + result.scanMillis() + " ms)");
    return String.join(" ", parts);
  }

  private static void quietLogging() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (factory instanceof LoggerContext logback) {
      logback.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
    }
  }
}
