package io.github.avgateway.load.history;

import io.github.avgateway.load.harness.ChildJvm;
import io.github.avgateway.load.harness.GatewayLauncher;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An indexer-only AMQP gateway ({@code avgateway.mode=indexer}) in a JVM of its own: it drains the
 * benchmark's history queue into the standalone Solr over HTTP, keeps the per-slot counts, and
 * serves the history API the queries are timed through, with basic authentication as a user calls
 * it. Its own retention is off unless the run asks for it (the benchmark purges itself).
 */
final class IndexerProcess implements AutoCloseable {

  static final String QUEUE = "av.scale.history";
  static final String PASSWORD = "scale-benchmark";

  private final ChildJvm jvm;
  private final int port;

  private IndexerProcess(ChildJvm jvm, int port) {
    this.jvm = jvm;
    this.port = port;
  }

  /**
   * Starts the indexer against {@code solrBaseUrl}; {@code extra} are more Spring arguments (the
   * feedback run's retention settings).
   */
  static IndexerProcess start(
      Path repo, String solrBaseUrl, Path log, String heap, List<String> extra) throws Exception {
    List<String> solr = new ArrayList<>();
    solr.add("--avgateway.solr.mode=http");
    solr.add("--avgateway.solr.http.base-url=" + solrBaseUrl);
    solr.addAll(extra);
    return launch(repo, log, heap, solr);
  }

  /**
   * Starts the indexer with the history in its own process (the default deployment's embedded Solr)
   * on the Solr home {@code solrHome}, which no other process may hold meanwhile.
   */
  static IndexerProcess startEmbedded(Path repo, Path solrHome, Path log, String heap)
      throws Exception {
    return launch(
        repo,
        log,
        heap,
        List.of("--avgateway.solr.mode=embedded", "--avgateway.solr.embedded.home=" + solrHome));
  }

  private static IndexerProcess launch(Path repo, Path log, String heap, List<String> extra)
      throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    List<String> args = new ArrayList<>();
    args.add("amqp");
    args.add("on");
    args.add("--avgateway.mode=indexer");
    args.add("--avgateway.solr.collection=history");
    args.add("--avgateway.solr.request-timeout=60s");
    args.add("--avgateway.solr.query-timeout=60s");
    args.add("--avgateway.history.queue=" + QUEUE);
    args.add("--avgateway.history.dead-letter-queue=" + QUEUE + ".dead-letters");
    args.add("--avgateway.http.password=" + PASSWORD);
    args.add("--server.port=" + port);
    args.add("--spring.main.banner-mode=off");
    args.add(
        "--logging.config=" + repo.resolve("load-tests/src/main/resources/logback-gateway.xml"));
    if (extra.stream().noneMatch(a -> a.startsWith("--avgateway.solr.retention.enabled="))) {
      args.add("--avgateway.solr.retention.enabled=false");
    }
    args.addAll(extra);
    ChildJvm jvm =
        new ChildJvm(
            GatewayLauncher.class.getName(),
            List.of("-Xmx" + heap, "-XX:+UseParallelGC"),
            args,
            log);
    if (!jvm.awaitReady(Duration.ofMinutes(3))) {
      jvm.close();
      throw new IllegalStateException("the indexer did not start; see " + log);
    }
    return new IndexerProcess(jvm, port);
  }

  long pid() {
    return jvm.pid();
  }

  /** The base URL of the history API, e.g. {@code http://127.0.0.1:PORT/api/history/}. */
  String apiBase() {
    return "http://127.0.0.1:" + port + "/api/history/";
  }

  String httpBase() {
    return "http://127.0.0.1:" + port + "/";
  }

  @Override
  public void close() throws InterruptedException {
    jvm.close();
  }
}
