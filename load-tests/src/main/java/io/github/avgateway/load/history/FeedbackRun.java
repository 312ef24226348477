package io.github.avgateway.load.history;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * Shows the retention feedback at the last checkpoint's size: an indexer whose own retention keeps
 * 29 days and may spend 1 ms per purge (so each purge deletes one 1-hour slice and is behind) is
 * given a window of history. While retention is behind, the store's gate is down and the indexer
 * holds: the history stays on the broker and the store does not grow. Prints a timeline (queue
 * depth, documents in Solr, the indexer's history health) until the purge caught up and the queue
 * is drained, then writes the purged day back.
 */
final class FeedbackRun {

  private static final Duration STEP = Duration.ofSeconds(5);
  private final HistoryScale run;

  FeedbackRun(HistoryScale run) {
    this.run = run;
  }

  void demonstrate() throws Exception {
    ScaleOptions options = run.options();
    long count = options.ingest();
    int perMessage = options.docsPerMessage();
    Instant cutoff = run.data().windowStart().plus(Duration.ofDays(1));
    Duration maxAge = Duration.between(cutoff, Instant.now());
    run.out()
        .printf(
            "%n  feedback: retention max-age %s (cutoff %s), budget 1ms, slice 1h%n",
            maxAge, cutoff);
    try (HistoryPublisher publisher =
        new HistoryPublisher(options.rabbitHost(), options.rabbitPort(), run.data())) {
      publisher.purge();
      publisher.publish(run.state().ingested, count, perMessage);
      run.state().ingested += count;
      run.state().save();
      List<String> retention =
          List.of(
              "--avgateway.solr.retention.enabled=true",
              "--avgateway.solr.retention.max-age=" + maxAge.toSeconds() + "s",
              "--avgateway.solr.retention.interval=5s",
              "--avgateway.solr.retention.budget=1ms",
              "--avgateway.solr.retention.slice=1h");
      long started = System.nanoTime();
      try (IndexerProcess indexer = run.startIndexer(retention)) {
        run.out().println("  | s | messages queued | documents in Solr | history health |");
        run.out().println("  |---|---|---|---|");
        long deadline = started + Duration.ofMinutes(20).toNanos();
        while (System.nanoTime() < deadline) {
          long queued = publisher.queued();
          run.out()
              .printf(
                  "  | %.0f | %,d | %,d | %s |%n",
                  Checkpoint.since(started),
                  queued,
                  SolrServerProcess.documents(run.client()),
                  health(indexer));
          if (queued == 0) {
            break;
          }
          Thread.sleep(STEP);
        }
      }
    }
    run.restoreOldestDay();
  }

  /** The history component of the indexer's health (authenticated, so that details show). */
  private static String health(IndexerProcess indexer) {
    try {
      String auth =
          Base64.getEncoder()
              .encodeToString(
                  ("avgateway:" + IndexerProcess.PASSWORD).getBytes(StandardCharsets.UTF_8));
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(indexer.httpBase() + "actuator/health/history"))
              .header("Authorization", "Basic " + auth)
              .timeout(Duration.ofSeconds(10))
              .build();
      String body =
          HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
      int retention = body.indexOf("\"retention\"");
      String status = body.contains("\"status\":\"UP\"") ? "UP" : "DOWN";
      if (retention < 0) {
        return status;
      }
      int end = body.indexOf('"', body.indexOf(':', retention) + 2);
      return status + " (retention " + body.substring(body.indexOf(':', retention) + 2, end) + ")";
    } catch (Exception e) {
      return "unreadable: " + e.getMessage();
    }
  }
}
