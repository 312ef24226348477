package io.github.avgateway.load.history;

import io.github.avgateway.load.harness.ChildJvm;
import io.github.avgateway.load.scale.SolrStandaloneMain;
import io.github.avgateway.solr.StandaloneSolr;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The standalone Solr holding the history, in a JVM of its own (the process whose CPU and heap the
 * benchmark reports), on a fixed local port so that it can be restarted for cold queries.
 */
final class SolrServerProcess implements AutoCloseable {

  private static final Pattern USED = Pattern.compile("used (\\d+)K");

  private final Path home;
  private final Path logs;
  private final String heap;
  private final int port;
  private ChildJvm jvm;
  private int starts;

  SolrServerProcess(Path home, Path logs, String heap) throws IOException {
    this.home = home;
    this.logs = logs;
    this.heap = heap;
    try (ServerSocket socket = new ServerSocket(0)) {
      this.port = socket.getLocalPort();
    }
  }

  void start() throws Exception {
    jvm =
        new ChildJvm(
            SolrStandaloneMain.class.getName(),
            List.of("-Xmx" + heap, "-Xms" + heap, "-Dsolr.log.dir=" + logs),
            List.of(home.toString(), Integer.toString(port)),
            logs.resolve("solr-" + starts++ + ".log"));
    if (!jvm.awaitReady(Duration.ofMinutes(10))) {
      throw new IllegalStateException("Solr did not start; see " + logs);
    }
  }

  void stop() throws InterruptedException {
    if (jvm != null) {
      jvm.close();
      jvm = null;
    }
  }

  /** Solr's pid, or -1 while it is stopped (its CPU then counts as nothing). */
  long pid() {
    return jvm == null ? -1 : jvm.pid();
  }

  Path home() {
    return home;
  }

  String baseUrl() {
    return "http://127.0.0.1:" + port + "/solr";
  }

  Http2SolrClient client(Duration requestTimeout) {
    return new Http2SolrClient.Builder(baseUrl())
        .withDefaultCollection(StandaloneSolr.CORE)
        .withConnectionTimeout(5, TimeUnit.SECONDS)
        .withRequestTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .build();
  }

  /** History documents Solr can see (the per-slot counts excluded). */
  static long documents(Http2SolrClient client) throws Exception {
    SolrQuery query = new SolrQuery("-kind:[* TO *]").setRows(0);
    return client.query(StandaloneSolr.CORE, query).getResults().getNumFound();
  }

  /**
   * The index's latest commit as Solr's segments handler describes it.
   *
   * @param bytes the committed segments' bytes (what the index keeps once merges in flight end)
   * @param docs documents in them, deleted ones included
   * @param deleted deleted documents not yet merged away
   */
  record Segments(long bytes, long docs, long deleted) {}

  Segments segments() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(baseUrl() + "/" + StandaloneSolr.CORE + "/admin/segments?wt=json"))
            .timeout(Duration.ofMinutes(2))
            .build();
    String body;
    try (HttpClient http = HttpClient.newHttpClient()) {
      body = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }
    long bytes = 0;
    long docs = 0;
    long deleted = 0;
    for (JsonNode segment : JsonMapper.builder().build().readTree(body).path("segments")) {
      bytes += segment.path("sizeInBytes").asLong();
      docs += segment.path("size").asLong();
      deleted += segment.path("delCount").asLong();
    }
    return new Segments(bytes, docs, deleted);
  }

  /** The history core's index directory (segments, without the transaction log). */
  Path indexDirectory() {
    return home.resolve(StandaloneSolr.CORE).resolve("data").resolve("index");
  }

  /** Bytes of the index directory (segments, without the transaction log). */
  long indexBytes() {
    return bytesUnder(indexDirectory());
  }

  /** Bytes of the transaction log. */
  long tlogBytes() {
    return bytesUnder(home.resolve(StandaloneSolr.CORE).resolve("data").resolve("tlog"));
  }

  private static long bytesUnder(Path dir) {
    if (Files.notExists(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(SolrServerProcess::size).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0; // merged away meanwhile
    }
  }

  /** The heap Solr's JVM uses after a full collection, in bytes (jcmd GC.run, GC.heap_info). */
  long heapAfterGc() throws Exception {
    jcmd("GC.run");
    Matcher used = USED.matcher(jcmd("GC.heap_info"));
    return used.find() ? Long.parseLong(used.group(1)) * 1024 : -1;
  }

  private String jcmd(String command) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p =
        new ProcessBuilder(jcmd.toString(), Long.toString(pid()), command)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);
    return out;
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
