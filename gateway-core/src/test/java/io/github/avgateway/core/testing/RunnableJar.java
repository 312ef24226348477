package io.github.avgateway.core.testing;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A module's runnable jar for the tests that start it as users do: found as {@code scripts/run.sh}
 * finds it, started against the integration tests' services, and awaited until it is ready.
 */
public final class RunnableJar {

  private RunnableJar() {}

  /**
   * The one {@code *-exec.jar} in the module's {@code target} directory (failsafe runs in the
   * module's directory, after {@code package} built the jar).
   */
  public static Path inTarget() {
    Path target = Path.of("target").toAbsolutePath();
    try (Stream<Path> files = Files.list(target)) {
      List<Path> jars =
          files.filter(f -> f.getFileName().toString().endsWith("-exec.jar")).toList();
      if (jars.size() != 1) {
        throw new IllegalStateException(
            "expected one *-exec.jar in " + target + " (run mvn verify), found " + jars);
      }
      return jars.get(0);
    } catch (IOException e) {
      throw new IllegalStateException("cannot list " + target, e);
    }
  }

  /**
   * Starts the module's runnable jar ({@code java -Xmx512m -jar}) with its embedded Solr under
   * {@code dir}, the integration tests' clamd, HTTP on {@code httpPort} with basic-auth {@code
   * password}, and the front-end's own {@code args}; its output goes to {@code dir/gateway.log}.
   */
  public static JavaProcess start(Path dir, int httpPort, String password, List<String> args)
      throws IOException {
    List<String> all = new ArrayList<>(args);
    all.add("--avgateway.solr.embedded.home=" + dir.resolve("solr"));
    all.add("--avgateway.clamd.endpoints=" + TestEnv.clamdEndpoint());
    all.add("--server.port=" + httpPort);
    all.add("--avgateway.http.password=" + password);
    return JavaProcess.startJar(inTarget(), List.of("-Xmx512m"), all, dir.resolve("gateway.log"));
  }

  /**
   * Waits (bounded) until the gateway's readiness answers 200 on {@code probe}; fails at once when
   * the process exits or its log says the embedded Solr failed to start.
   */
  public static void awaitReady(JavaProcess gateway, HttpProbe probe, Duration timeout) {
    await("readiness of the gateway (log: " + gateway.log() + ")")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(250))
        .failFast(
            "the gateway exited, or its embedded Solr failed to start",
            // "the embedded Solr under DIR failed to start" is the only line naming its directory
            () -> !gateway.alive() || gateway.occurrences("embedded Solr under") > 0)
        .ignoreExceptions()
        .until(() -> probe.get("/actuator/health/readiness").status() == 200);
  }
}
