package io.github.avgateway.solr;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * A real standalone Solr over HTTP, in this JVM (Jetty from solr-test-framework), with the history
 * configset and one core. It can be stopped and started again on the same port, data kept.
 */
public final class StandaloneSolr implements AutoCloseable {

  /** The core holding the history. */
  public static final String CORE = "history";

  private final JettySolrRunner jetty;

  private StandaloneSolr(JettySolrRunner jetty) {
    this.jetty = jetty;
  }

  /** Starts Solr with its home under {@code home} (created if absent) on a free local port. */
  public static StandaloneSolr start(Path home) throws Exception {
    return start(home, 0);
  }

  /** Starts Solr with its home under {@code home} (created if absent) on {@code port}. */
  public static StandaloneSolr start(Path home, int port) throws Exception {
    EmbeddedSolr.prepareHome(home, CORE);
    JettySolrRunner jetty =
        new JettySolrRunner(home.toString(), JettyConfig.builder().setPort(port).build());
    jetty.start();
    return new StandaloneSolr(jetty);
  }

  /** E.g. {@code http://127.0.0.1:PORT/solr}. */
  public String baseUrl() {
    return jetty.getBaseUrl().toString();
  }

  /** The base URL with another port, e.g. that of a proxy in front of this Solr. */
  public String baseUrlThrough(int port) {
    return baseUrl().replace(":" + port() + "/", ":" + port + "/");
  }

  /** The port Solr listens on. */
  public int port() {
    return jetty.getLocalPort();
  }

  /**
   * The {@code avgateway.solr.*} properties of a gateway using this Solr's history core in http
   * mode, reached on {@code port}: Solr's own or that of a proxy in front of it.
   */
  public Map<String, String> httpModeProperties(int port) {
    return Map.of(
        "avgateway.solr.mode",
        "http",
        "avgateway.solr.http.base-url",
        baseUrlThrough(port),
        "avgateway.solr.collection",
        CORE);
  }

  /** A client for the history core with the given request timeout. */
  public Http2SolrClient client(Duration requestTimeout) {
    return new Http2SolrClient.Builder(baseUrl())
        .withDefaultCollection(CORE)
        .withConnectionTimeout(2, TimeUnit.SECONDS)
        .withRequestTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .build();
  }

  /** A store over HTTP for the history core. */
  public SolrHistoryStore store(Duration requestTimeout) {
    return SolrHistoryStore.of(client(requestTimeout), CORE);
  }

  /** Stops Solr; clients get connection errors until {@link #restart()}. */
  public void stop() throws Exception {
    jetty.stop();
  }

  /** Starts Solr again on the same port. */
  public void restart() throws Exception {
    jetty.start(true);
  }

  @Override
  public void close() throws Exception {
    if (jetty.isRunning()) {
      jetty.stop();
    }
  }
}
