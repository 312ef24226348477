package io.github.avgateway.load.history;

import io.github.avgateway.load.harness.CpuMeter;
import io.github.avgateway.solr.RetentionRun;
import io.github.avgateway.solr.RetentionSettings;
import io.github.avgateway.solr.SolrHistoryGate;
import io.github.avgateway.solr.SolrRetention;
import io.github.avgateway.solr.StandaloneSolr;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * A retention purge of the window's oldest day through the project's own {@link SolrRetention} with
 * the default slice of an hour (delete-by-query per slice, paced, commitWithin, no commit), on a
 * clock set so that its cutoff is the end of that day. Measures the purge requests' time, the time
 * until the deletions are visible, and Solr's CPU from the purge's start until then per purged
 * document.
 *
 * @param purged documents the purge deleted
 * @param requestMillis the purge's requests
 * @param visibleMillis from the purge's start until a search no longer finds them
 * @param solrCpuMicrosPerDocument Solr's CPU over that time per purged document
 * @param behind whether the purge ran out of its budget
 */
record PurgeRun(
    long purged,
    long requestMillis,
    long visibleMillis,
    double solrCpuMicrosPerDocument,
    boolean behind) {

  static final Duration MAX_AGE = Duration.ofDays(29);

  /** Purges the oldest day of {@code data}'s window from the Solr at {@code client}. */
  static PurgeRun oldestDay(Http2SolrClient client, long solrPid, ScaleData data) throws Exception {
    Instant cutoff = data.windowStart().plus(Duration.ofDays(1));
    Clock clock = Clock.fixed(cutoff.plus(MAX_AGE), ZoneOffset.UTC);
    RetentionSettings settings =
        new RetentionSettings(
            MAX_AGE, Duration.ofHours(1), Duration.ofMinutes(10), Duration.ofHours(1));
    SolrRetention retention =
        new SolrRetention(
            client,
            StandaloneSolr.CORE,
            settings,
            Duration.ofSeconds(1),
            new SolrHistoryGate(),
            clock);
    long cpuBefore = CpuMeter.ticks(solrPid);
    long started = System.nanoTime();
    RetentionRun run = retention.purgeOnce();
    while (before(client, cutoff) > 0) {
      Thread.sleep(20);
    }
    long visible = System.nanoTime() - started;
    long cpuTicks = CpuMeter.ticks(solrPid) - cpuBefore;
    double perDoc = run.purged() == 0 ? 0 : cpuTicks * 10_000.0 / run.purged();
    return new PurgeRun(
        run.purged(), run.took().toMillis(), visible / 1_000_000, perDoc, run.behind());
  }

  private static long before(Http2SolrClient client, Instant cutoff) throws Exception {
    SolrQuery query = new SolrQuery("receivedAt:[* TO " + cutoff + "}").setRows(0);
    query.addFilterQuery("-kind:[* TO *]");
    return client.query(StandaloneSolr.CORE, query).getResults().getNumFound();
  }
}
