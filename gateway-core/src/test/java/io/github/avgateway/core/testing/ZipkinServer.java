package io.github.avgateway.core.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Zipkin server (its executable jar from Maven Central, copied to {@code
 * target/zipkin/zipkin-server.jar} by the module's build) on 127.0.0.1 and a free port, in-memory
 * storage. Its lifetime is bounded twice: the test closes it, and {@code timeout} ends it after
 * {@link #LIFETIME} should the test JVM die first.
 */
public final class ZipkinServer implements AutoCloseable {

  /** The longest a server started here lives. */
  public static final Duration LIFETIME = Duration.ofMinutes(10);

  private static final JsonMapper JSON = new JsonMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final Process process;
  private final int port;

  private ZipkinServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts the server from {@code target/zipkin/zipkin-server.jar}; returns once it is healthy. */
  public static ZipkinServer start() throws IOException {
    Path jar = Path.of("target", "zipkin", "zipkin-server.jar").toAbsolutePath();
    if (!Files.exists(jar)) {
      throw new IllegalStateException(jar + " is missing: the module's build copies it (verify)");
    }
    int port = TestEnv.freePort();
    Path log = jar.resolveSibling("zipkin-" + port + ".log");
    List<String> command = new ArrayList<>();
    command.addAll(List.of("timeout", Long.toString(LIFETIME.toSeconds())));
    command.addAll(
        List.of(javaBin(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString()));
    command.add("--armeria.ports[0].port=" + port);
    command.add("--armeria.ports[0].ip=127.0.0.1");
    command.add("--armeria.ports[0].protocols[0]=http");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    ZipkinServer server = new ZipkinServer(process, port);
    try {
      await("Zipkin healthy (log: " + log + ")")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(500))
          .until(server::healthy);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** Where spans are sent: Zipkin's v2 span API. */
  public String spansEndpoint() {
    return base() + "/api/v2/spans";
  }

  /** The server's base URL (its UI and API). */
  public String base() {
    return "http://127.0.0.1:" + port;
  }

  /** The spans of trace {@code traceId} (none while the server does not know it). */
  public List<JsonNode> trace(String traceId) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(base() + "/api/v2/trace/" + traceId)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return List.of();
      }
      List<JsonNode> spans = new ArrayList<>();
      JSON.readTree(response.body()).forEach(spans::add);
      return spans;
    } catch (IOException e) {
      return List.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    }
  }

  private boolean healthy() {
    try {
      HttpRequest health = HttpRequest.newBuilder(URI.create(base() + "/health")).build();
      return http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
