package io.github.avgateway.load.history;

import io.github.avgateway.core.model.MessageInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every query the history page and the {@code /api/history/} API make, timed as a user waits for
 * it: one HTTP request with basic authentication to the indexer, until the whole answer is read.
 * Lookups take a different document each call (sampled from the documents written), so that no
 * answer is served from a cache the first call filled. Time ranges end 30 minutes before the
 * window's end, the benchmark's "now": the current hour is counted from its documents, as it always
 * is while scans come in.
 */
final class ApiQueries {

  /** Pages walked by the deep-paging query per call (of 500 documents each). */
  static final int DEEP_PAGES = 40;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final JsonMapper json = JsonMapper.builder().build();
  private final ScaleData data;
  private final ScaleState state;
  private final String auth;
  private String base;
  private long sample = 1;

  ApiQueries(ScaleData data, ScaleState state) {
    this.data = data;
    this.state = state;
    this.auth =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    ("avgateway:" + IndexerProcess.PASSWORD).getBytes(StandardCharsets.UTF_8));
  }

  void target(IndexerProcess indexer) {
    this.base = indexer.apiBase();
  }

  /** The queries by name: each call returns the milliseconds one request took. */
  Map<String, LongFunction<Double>> all() {
    Instant end = data.windowEnd().minus(Duration.ofMinutes(30));
    String day = "from=" + end.minus(Duration.ofDays(1)) + "&to=" + end;
    String month = "from=" + end.minus(ScaleData.WINDOW) + "&to=" + end;
    Map<String, LongFunction<Double>> q = new LinkedHashMap<>();
    q.put("recent (page, 24 h)", i -> time("recent?limit=25&" + day));
    q.put("per hour 24 h", i -> time("verdicts-per-hour?" + day));
    q.put("per hour 30 d", i -> time("verdicts-per-hour?" + month));
    q.put("top signatures 24 h", i -> time("top-signatures?limit=10&" + day));
    q.put("top signatures 30 d", i -> time("top-signatures?limit=10&" + month));
    q.put("by SHA-256 (popular file)", i -> time("by-sha256?limit=20&sha256=" + popular(i)));
    q.put("by SHA-256 (any file)", i -> time("by-sha256?limit=20&sha256=" + next().sha256()));
    q.put("by request id", i -> byRequestId());
    q.put("by correlation id", i -> byCorrelationId());
    q.put("INFECTED 30 d, first page", i -> time("by-verdict?verdict=INFECTED&size=50&" + month));
    q.put("CLEAN 30 d, page of 50 at 20,000 deep", i -> deepPage(month));
    q.put("first page, newest first 30 d", i -> time("recent?limit=50&" + month));
    q.put(
        "first page, oldest first 30 d", i -> time("recent?limit=50&order=oldest-first&" + month));
    return q;
  }

  private static String popular(long i) {
    return ScaleData.sha256(i % 50);
  }

  private double byRequestId() {
    MessageInfo doc = next();
    return time(
        "by-request-id?transport=" + doc.transport() + "&requestId=" + enc(doc.requestId()));
  }

  private double byCorrelationId() {
    MessageInfo doc = next();
    while (doc.correlationId() == null) {
      doc = next();
    }
    return time("by-correlation-id?limit=20&correlationId=" + enc(doc.correlationId()));
  }

  /**
   * Walks {@link #DEEP_PAGES} pages of 500 CLEAN documents by cursor (untimed), then returns the
   * time of one page of 50 from there, as the page asks for it: a page 20,000 documents deep.
   */
  private double deepPage(String range) {
    String cursor = null;
    for (int page = 0; page < DEEP_PAGES; page++) {
      String path = "by-verdict?verdict=CLEAN&size=500&" + range;
      if (cursor != null) {
        path += "&cursor=" + enc(cursor);
      }
      cursor = json(path).get("next").asString();
    }
    return time("by-verdict?verdict=CLEAN&size=50&" + range + "&cursor=" + enc(cursor));
  }

  /** A document written by a fill pass, a different one each call. */
  private MessageInfo next() {
    sample = sample * 6364136223846793005L + 1442695040888963407L;
    List<ScaleState.Pass> passes = state.passes;
    ScaleState.Pass pass = passes.get((int) Math.floorMod(sample >>> 40, passes.size()));
    long j = Math.floorMod(ScaleData.mix(sample, 60), pass.written());
    return data.document(pass.first(), pass.size(), j);
  }

  private double time(String path) {
    long start = System.nanoTime();
    json(path);
    return (System.nanoTime() - start) / 1e6;
  }

  private JsonNode json(String path) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Authorization", auth)
            .header("Accept", "application/json")
            .timeout(Duration.ofSeconds(120))
            .GET()
            .build();
    try {
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            path
                + " answered "
                + response.statusCode()
                + ": "
                + new String(response.body(), StandardCharsets.UTF_8));
      }
      return json.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /**
   * p50 and p99 of {@code samples} (milliseconds), nearest rank.
   *
   * @param p50 the median
   * @param p99 the 99th percentile (the largest of fewer than 100 samples)
   * @param count how many samples
   */
  record Percentiles(double p50, double p99, int count) {
    static Percentiles of(List<Double> samples) {
      double[] sorted = samples.stream().mapToDouble(Double::doubleValue).toArray();
      Arrays.sort(sorted);
      return new Percentiles(rank(sorted, 0.50), rank(sorted, 0.99), sorted.length);
    }

    private static double rank(double[] sorted, double q) {
      int index = (int) Math.ceil(q * sorted.length) - 1;
      return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
  }

  static List<Double> repeat(LongFunction<Double> query, int times, long seed) {
    List<Double> samples = new ArrayList<>(times);
    for (int i = 0; i < times; i++) {
      samples.add(query.apply(seed + i));
    }
    return samples;
  }
}
