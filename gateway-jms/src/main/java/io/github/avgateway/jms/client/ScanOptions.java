package io.github.avgateway.jms.client;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@link ScanCommand}.
 *
 * @param url the broker, default {@code tcp://127.0.0.1:61616}
 * @param queue the gateway's request queue, default {@code av.scan.requests}
 * @param user broker user or null
 * @param password broker password or null
 * @param timeoutSeconds how long one file may take, default 120
 * @param files the files to scan, at least one
 */
record ScanOptions(
    String url, String queue, String user, String password, long timeoutSeconds, List<Path> files) {

  static final String USAGE =
      "usage: scan [--url tcp://127.0.0.1:61616] [--queue av.scan.requests] [--user U --password P]"
          + " [--timeout SECONDS] FILE...";

  @Override
  public String toString() {
    return "ScanOptions[url=" + url + ", queue=" + queue + ", files=" + files.size() + "]";
  }

  static ScanOptions parse(String[] args) {
    String url = "tcp://127.0.0.1:61616";
    String queue = "av.scan.requests";
    String user = null;
    String password = null;
    long timeout = 120;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--url" -> url = value(args, ++i, arg);
        case "--queue" -> queue = value(args, ++i, arg);
        case "--user" -> user = value(args, ++i, arg);
        case "--password" -> password = value(args, ++i, arg);
        case "--timeout" -> timeout = seconds(value(args, ++i, arg));
        default -> {
          if (arg.startsWith("--")) {
            throw new IllegalArgumentException("unknown option " + arg);
          }
          files.add(Path.of(arg));
        }
      }
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no file to scan");
    }
    return new ScanOptions(url, queue, user, password, timeout, List.copyOf(files));
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }

  private static long seconds(String value) {
    try {
      long seconds = Long.parseLong(value);
      if (seconds > 0) {
        return seconds;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("--timeout needs a positive number of seconds");
  }
}
