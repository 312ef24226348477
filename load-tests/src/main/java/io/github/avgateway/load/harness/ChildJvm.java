package io.github.avgateway.load.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM on the harness's own class path (an echo server or a gateway), its output in a log
 * file, with a bounded wait for its {@code READY} line and a bounded stop (SIGTERM, then SIGKILL
 * after 30 s). Only the harness's own children are ever stopped, by their process handle.
 */
public final class ChildJvm implements AutoCloseable {

  private final Process process;
  private final CountDownLatch ready = new CountDownLatch(1);
  final long spawnedNanos;

  public ChildJvm(String mainClass, List<String> jvmArgs, List<String> args, Path log)
      throws IOException {
    this(
        command(jvmArgs, List.of("-cp", System.getProperty("java.class.path"), mainClass), args),
        log);
  }

  /** A child running {@code java [jvmArgs] -jar jar [args]}. */
  static ChildJvm jar(Path jar, List<String> jvmArgs, List<String> args, Path log)
      throws IOException {
    return new ChildJvm(command(jvmArgs, List.of("-jar", jar.toString()), args), log);
  }

  private static List<String> command(List<String> jvmArgs, List<String> what, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // Netty 4.2 on JDK 24+ cannot free Artemis' journal buffers without Unsafe (gateway-jms
    // README).
    command.add("-Dio.netty.noUnsafe=false");
    command.addAll(jvmArgs);
    command.addAll(what);
    command.addAll(args);
    return command;
  }

  private ChildJvm(List<String> command, Path log) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
    spawnedNanos = System.nanoTime();
    process = builder.start();
    // Should the harness itself be stopped, its children go with it.
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
    Thread.ofPlatform().daemon().name("child-out").start(this::readOutput);
  }

  private void readOutput() {
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.equals("READY")) {
          ready.countDown();
        }
      }
    } catch (IOException e) {
      // the child ended
    }
  }

  /** Waits for {@code READY}; false when the child died or did not get there in time. */
  public boolean awaitReady(Duration timeout) throws InterruptedException {
    return ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS) && process.isAlive();
  }

  /** SIGKILL, no clean shutdown (a fault run's crash); waits until the process is gone. */
  public void kill9() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  public long pid() {
    return process.pid();
  }

  @Override
  public void close() throws InterruptedException {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // it may have ended already
    }
    if (!process.waitFor(3, TimeUnit.SECONDS)) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
