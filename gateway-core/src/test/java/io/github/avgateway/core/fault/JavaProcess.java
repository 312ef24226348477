package io.github.avgateway.core.fault;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Java program (e.g. a gateway) in a JVM of its own, on the test's class path, so that a fault
 * test can {@code kill -9} it and start it again. Its standard output and error go to one log file
 * (appended across restarts); readiness is a line in that log. Only this object's own process is
 * ever signalled, and a JVM shutdown hook stops it should the test JVM end first.
 */
public final class JavaProcess implements AutoCloseable {

  private final List<String> command;
  private final Path log;
  private Process process;

  private JavaProcess(List<String> command, Path log) {
    this.command = List.copyOf(command);
    this.log = log;
  }

  /**
   * Starts {@code java [jvmArgs] -cp <the test class path> mainClass [args]} with output to {@code
   * log}. Call {@link #awaitLog} to wait until it is ready.
   */
  public static JavaProcess start(
      String mainClass, List<String> jvmArgs, List<String> args, Path log) throws IOException {
    return start(
        jvmArgs, List.of("-cp", System.getProperty("java.class.path"), mainClass), args, log);
  }

  /**
   * Starts {@code java [jvmArgs] -jar jar [args]}, e.g. a module's runnable jar as users run it,
   * with output to {@code log}.
   */
  public static JavaProcess startJar(Path jar, List<String> jvmArgs, List<String> args, Path log)
      throws IOException {
    return start(jvmArgs, List.of("-jar", jar.toAbsolutePath().toString()), args, log);
  }

  private static JavaProcess start(
      List<String> jvmArgs, List<String> program, List<String> args, Path log) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmArgs);
    command.addAll(program);
    command.addAll(args);
    Files.createDirectories(log.toAbsolutePath().getParent());
    JavaProcess java = new JavaProcess(command, log);
    java.launch();
    Runtime.getRuntime().addShutdownHook(new Thread(java::destroyQuietly));
    return java;
  }

  /** Starts the same command again (after {@link #kill9()} or {@link #stop()}). */
  public void launch() throws IOException {
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
  }

  /** Waits (bounded) until the log holds {@code text} at least {@code times} times. */
  public void awaitLog(String text, int times, Duration timeout) {
    await("'" + text + "' x" + times + " in " + log)
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(200))
        .failFast("the process exited (see " + log + ")", () -> !process.isAlive())
        .until(() -> occurrences(text) >= times);
  }

  /** How often {@code text} occurs in the log so far. */
  public long occurrences(String text) throws IOException {
    if (!Files.exists(log)) {
      return 0;
    }
    String content = Files.readString(log, StandardCharsets.ISO_8859_1);
    return content.lines().filter(line -> line.contains(text)).count();
  }

  /** {@code SIGKILL}: no shutdown hook, no clean close; waits until the process is gone. */
  public void kill9() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** {@code SIGTERM} (a clean shutdown), {@code SIGKILL} after 30 s. */
  public void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        kill9();
      }
    }
  }

  public boolean alive() {
    return process != null && process.isAlive();
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  private void destroyQuietly() {
    if (process != null) {
      process.destroyForcibly();
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
