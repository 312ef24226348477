package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocumentList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes history documents (and the per-slot counts and markers of their slots) older than {@link
 * RetentionSettings#maxAge()} on a schedule, with delete-by-query on {@code receivedAt}, one time
 * slice per request, oldest first, no explicit commit (deletions become visible with the same
 * {@code commitWithin} as adds).
 *
 * <p>If a purge runs out of its budget with documents past the cutoff left, or fails, {@link
 * SolrHistoryGate#retention()} turns down and the history indexer holds; the next purge is
 * attempted after {@link RetentionSettings#retryDelay()} and the gate comes back up once a purge
 * reaches the cutoff. So the index cannot outgrow its purge.
 */
public final class SolrRetention implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SolrRetention.class);

  /** How many times its own duration a purge waits after each delete request. */
  static final int PACE = 4;

  private final SolrClient client;
  private final String collection;
  private final RetentionSettings settings;
  private final Duration commitWithin;
  private final SolrHistoryGate gate;
  private final Clock clock;
  private final ScheduledRuns schedule =
      new ScheduledRuns("solr-history-retention", this::scheduledPurge);

  public SolrRetention(
      SolrClient client,
      String collection,
      RetentionSettings settings,
      Duration commitWithin,
      SolrHistoryGate gate,
      Clock clock) {
    this.client = client;
    this.collection = collection;
    this.settings = settings;
    this.commitWithin = commitWithin;
    this.gate = gate;
    this.clock = clock;
  }

  /** Starts purging on schedule: the first purge at once, then after every interval. */
  public void start() {
    schedule.start();
  }

  private Duration scheduledPurge() {
    Duration next = settings.interval();
    try {
      RetentionRun run = purgeOnce();
      log.info(
          "history retention: {} documents before {} purged in {} ms{}",
          run.purged(),
          run.cutoff(),
          run.took().toMillis(),
          run.behind() ? ", behind" : "");
      if (run.behind()) {
        next = settings.retryDelay();
      }
    } catch (SolrHistoryException e) {
      log.warn("history retention failed: {}", e.getMessage());
      next = settings.retryDelay();
    }
    return next;
  }

  /**
   * Purges once, now. Updates the gate: up when no document older than the cutoff is left (as far
   * as the deletes sent go), down when the budget ran out first or Solr failed.
   *
   * @throws SolrHistoryException when Solr fails a count or a delete
   */
  public RetentionRun purgeOnce() {
    Instant started = clock.instant();
    Instant cutoff = started.minus(settings.maxAge());
    long nanos = System.nanoTime();
    try {
      Backlog backlog = backlog(cutoff);
      Instant reached =
          backlog.count() == 0 ? cutoff : deleteSlices(backlog.oldest(), cutoff, nanos);
      RetentionRun run =
          new RetentionRun(
              cutoff,
              backlog.count(),
              Duration.ofNanos(System.nanoTime() - nanos),
              reached.isBefore(cutoff));
      if (run.behind()) {
        gate.retentionBehind(
            "documents received before "
                + cutoff
                + " remain after a purge of "
                + settings.budget());
      } else {
        gate.retentionCaughtUp();
      }
      return run;
    } catch (SolrHistoryException e) {
      gate.retentionBehind("the purge failed: " + e.getMessage());
      throw e;
    }
  }

  /**
   * Deletes slice by slice from {@code oldest}; returns how far it got before the budget ran out.
   * The first slice is always deleted, so that every purge makes progress however small the budget.
   * After each delete it waits {@value #PACE} times as long as the delete took: a delete-by-query
   * holds Solr's update lock while it reopens the real-time searcher, and the wait leaves most of
   * Solr's time to the indexer's adds.
   */
  private Instant deleteSlices(Instant oldest, Instant cutoff, long startNanos) {
    long budgetNanos = settings.budget().toNanos();
    Instant sliceStart = oldest;
    boolean first = true;
    while (sliceStart.isBefore(cutoff)
        && (first || System.nanoTime() - startNanos <= budgetNanos)) {
      Instant sliceEnd = sliceStart.plus(settings.slice());
      if (sliceEnd.isAfter(cutoff)) {
        sliceEnd = cutoff;
      }
      String query =
          first
              ? SolrSyntax.before(HistoryFields.RECEIVED_AT, sliceEnd)
              : SolrSyntax.range(HistoryFields.RECEIVED_AT, new TimeRange(sliceStart, sliceEnd));
      UpdateRequest delete = new UpdateRequest();
      delete.deleteByQuery(query);
      delete.setCommitWithin(Math.toIntExact(commitWithin.toMillis()));
      long sent = System.nanoTime();
      SolrHistoryQueries.call(() -> delete.process(client, collection));
      first = false;
      sliceStart = sliceEnd;
      if (sliceStart.isBefore(cutoff) && !pause((System.nanoTime() - sent) * PACE)) {
        break;
      }
    }
    return sliceStart;
  }

  /** Sleeps {@code nanos}; false when interrupted (retention is closing). */
  private static boolean pause(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private record Backlog(long count, Instant oldest) {}

  private Backlog backlog(Instant cutoff) {
    SolrQuery query = new SolrQuery(SolrSyntax.before(HistoryFields.RECEIVED_AT, cutoff));
    query.addFilterQuery(DocumentSearch.DOCUMENTS_ONLY);
    query.setRows(1);
    query.setFields(HistoryFields.RECEIVED_AT);
    query.set("sort", HistoryFields.RECEIVED_AT + " asc");
    QueryResponse response = SolrHistoryQueries.call(() -> client.query(collection, query));
    SolrDocumentList results = response.getResults();
    if (results.getNumFound() == 0) {
      return new Backlog(0, cutoff);
    }
    Date oldest = (Date) results.get(0).getFirstValue(HistoryFields.RECEIVED_AT);
    return new Backlog(results.getNumFound(), oldest.toInstant());
  }

  /** Stops the schedule; a purge in progress finishes its current request. */
  @Override
  public void close() {
    schedule.close();
  }
}
