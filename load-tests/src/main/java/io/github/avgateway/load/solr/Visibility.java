package io.github.avgateway.load.solr;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.solr.RecorderSettings;
import io.github.avgateway.solr.SolrHistoryGate;
import io.github.avgateway.solr.SolrHistoryRecorder;
import io.github.avgateway.solr.SolrHistoryStore;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.solr.client.solrj.SolrQuery;

/**
 * Visibility delay: one document at a time is recorded (commitWithin 1 s, the default) and a search
 * for its id is polled every 5 ms; the delay runs from the accepted future to the first search that
 * finds it. The next sample starts only after the previous one is visible.
 */
final class Visibility {

  private final SolrHistoryStore store;

  Visibility(SolrHistoryStore store) {
    this.store = store;
  }

  void measure(int samples) throws Exception {
    long[] acceptedMillis = new long[samples];
    long[] visibleMillis = new long[samples];
    try (SolrHistoryRecorder recorder =
        new SolrHistoryRecorder(
            store.client(),
            store.collection(),
            RecorderSettings.defaults(),
            new SolrHistoryGate())) {
      for (int i = 0; i < samples; i++) {
        MessageInfo info = Ingest.next();
        long start = System.nanoTime();
        recorder.record(info).get(30, TimeUnit.SECONDS);
        long accepted = System.nanoTime();
        while (!visible(info.id())) {
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        acceptedMillis[i] = (accepted - start) / 1_000_000;
        visibleMillis[i] = (System.nanoTime() - accepted) / 1_000_000;
      }
    }
    SolrHistoryBenchmark.print("");
    SolrHistoryBenchmark.print(
        "| delay (ms), " + samples + " samples | min | median | p95 | max |");
    SolrHistoryBenchmark.print("|---|---|---|---|---|");
    row("record → accepted", acceptedMillis);
    row("accepted → visible", visibleMillis);
  }

  private boolean visible(String id) throws Exception {
    SolrQuery query = new SolrQuery("{!term f=id}" + id);
    query.setRows(0);
    return store.client().query(store.collection(), query).getResults().getNumFound() == 1;
  }

  private static void row(String label, long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    SolrHistoryBenchmark.print(
        "| %s | %d | %d | %d | %d |"
            .formatted(
                label,
                sorted[0],
                sorted[n / 2],
                sorted[(int) Math.ceil(n * 0.95) - 1],
                sorted[n - 1]));
  }
}
