package io.github.avgateway.solr;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.TimeRange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.TermsFacetMap;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.response.json.BucketBasedJsonFacet;
import org.apache.solr.client.solrj.response.json.BucketJsonFacet;
import org.apache.solr.client.solrj.response.json.NestableJsonFacet;
import org.apache.solr.common.SolrInputDocument;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the history's per-slot counts ({@link RollupSlots}) up to date: on a schedule, takes the
 * slots marked dirty that ended at least {@code settle} ago, counts each slot's documents per
 * verdict and per signature, writes the counts, and removes the slot's marker only if no batch
 * marked it again meanwhile (the delete names the marker's {@code _version_}; a conflict leaves it
 * for the next run). So a slot's counts are either exact or the slot is still marked, and the
 * history page's queries count a marked slot from its documents. Each slot counted marks its day;
 * after the slots, a run adds up the signature counts of the marked days that have ended ({@link
 * DaySums}).
 *
 * <p>Counting a slot costs a facet over that slot's documents, once per slot (again only when late
 * documents arrive for it), so the cost of keeping counts grows with the documents written, never
 * with the size of the index. Every process holding the store runs it; two of them counting the
 * same slot write the same counts.
 */
public final class SolrRollups implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SolrRollups.class);
  private static final int SLOTS_PER_RUN = 500;

  private final SolrClient client;
  private final HistoryCollections collections;
  private final String collection;
  private final HistoryUpdates updates;
  private final RollupSlots slots;
  private final Duration interval;
  private final Duration settle;
  private final Duration visibilityWait;
  private final Clock clock;
  private final int commitWithinMillis;
  private final DaySums days;
  private final ScheduledRuns schedule =
      new ScheduledRuns("solr-history-rollups", this::scheduledRun);

  public SolrRollups(
      SolrClient client,
      String collection,
      RollupSlots slots,
      Duration interval,
      Duration settle,
      Duration visibilityWait,
      Clock clock) {
    this(
        client,
        HistoryCollections.single(collection),
        slots,
        new Schedule(interval, settle, visibilityWait),
        clock);
  }

  /**
   * Counts over {@code collections} (a single collection, or a time-routed alias: {@link
   * SolrHistoryStore#collections()}).
   */
  public SolrRollups(
      SolrClient client,
      HistoryCollections collections,
      RollupSlots slots,
      Schedule schedule,
      Clock clock) {
    this.client = client;
    this.collections = collections;
    this.collection = collections.name();
    this.updates = new HistoryUpdates(client, collections);
    this.slots = slots;
    this.interval = schedule.interval();
    this.settle = schedule.settle();
    this.visibilityWait = schedule.visibilityWait();
    this.clock = clock;
    // writes become visible within half the wait, as the history's own batches do
    this.commitWithinMillis = Math.toIntExact(Math.max(1, visibilityWait.toMillis() / 2));
    this.days = new DaySums(client, collections, slots, commitWithinMillis);
  }

  /**
   * When the counts are brought up to date.
   *
   * @param interval time between the end of one run and the start of the next
   * @param settle how long after a slot ends it is counted: longer than the visibility delay
   *     (commitWithin), so that the slot's documents are searchable
   * @param visibilityWait how long a run waits between finding markers and counting: twice the
   *     visibility delay, so that documents written with a late marker are searchable on every
   *     shard (a marker is visible once its own shard made it so)
   */
  public record Schedule(Duration interval, Duration settle, Duration visibilityWait) {}

  /** Starts counting on schedule: a run at once, then one every interval after the last ended. */
  public void start() {
    schedule.start();
  }

  private Duration scheduledRun() {
    Duration next = interval;
    try {
      Run run = runOnce();
      if (run.counted() > 0 || run.days() > 0) {
        log.debug(
            "history rollups: {} slots counted, {} marked again, {} days summed",
            run.counted(),
            run.again(),
            run.days());
      }
      if (run.more()) {
        next = Duration.ZERO;
      }
    } catch (SolrHistoryException e) {
      log.warn("history rollups failed, retrying in {}: {}", interval, e.getMessage());
    }
    return next;
  }

  /**
   * The outcome of one run.
   *
   * @param counted slots whose counts were written and whose marker was removed
   * @param again slots marked again while they were counted (counted once more next run)
   * @param days days whose signature counts were summed ({@link DaySums})
   * @param more whether settled markers were left for the next run
   */
  public record Run(int counted, int again, int days, boolean more) {}

  /**
   * Counts every settled dirty slot (up to {@value #SLOTS_PER_RUN}), then sums the days that ended
   * and had a slot counted (up to {@value DaySums#DAYS_PER_RUN}), now.
   *
   * @throws SolrHistoryException when Solr fails a request
   */
  public Run runOnce() {
    Instant settledBefore = clock.instant().minus(settle).minus(slots.length());
    List<DirtyMarkers.Marker> markers =
        DirtyMarkers.settled(client, collections, RollupSlots.DIRTY, settledBefore, SLOTS_PER_RUN);
    if (!markers.isEmpty() && !awaitVisibility()) {
      return new Run(0, 0, 0, true);
    }
    int counted = 0;
    int again = 0;
    for (DirtyMarkers.Marker marker : markers) {
      if (count(marker)) {
        counted++;
      } else {
        again++;
      }
    }
    // the day markers written just now with the counts become visible with them: wait once more
    List<DirtyMarkers.Marker> marked = days.markedDays(clock.instant().minus(settle));
    if (!marked.isEmpty() && !awaitVisibility()) {
      return new Run(counted, again, 0, true);
    }
    int summed = 0;
    for (DirtyMarkers.Marker day : marked) {
      summed += days.sum(day) ? 1 : 0;
    }
    // days left only because a slot of theirs is still dirty wait for the next scheduled run
    boolean more =
        markers.size() == SLOTS_PER_RUN || (marked.size() == DaySums.DAYS_PER_RUN && summed > 0);
    return new Run(counted, again, summed, more);
  }

  /** Waits {@code visibilityWait}; false when interrupted. */
  private boolean awaitVisibility() {
    if (visibilityWait.isZero()) {
      return true;
    }
    try {
      Thread.sleep(visibilityWait);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Counts the marker's slot and writes the counts and its day's marker (each where a document of
   * its time goes), then removes the slot's marker from its collection if it has the version read;
   * false when the slot was marked again meanwhile (counted again next run).
   */
  private boolean count(DirtyMarkers.Marker marker) {
    Instant slot = marker.slot();
    long length = marker.slotMillis();
    SlotCounts counts = countDocuments(new TimeRange(slot, slot.plusMillis(length)));
    try {
      SolrInputDocument day = RollupSlots.dayMarker(RollupSlots.dayOf(slot), length);
      return updates.addThenRemove(
          List.of(rollup(slot, length, counts), day), marker, commitWithinMillis);
    } catch (Exception e) {
      throw new SolrHistoryException(
          "writing the counts of slot " + slot + " failed: " + BatchWriter.describe(e), e);
    }
  }

  private SlotCounts countDocuments(TimeRange range) {
    JsonQueryRequest request =
        new JsonQueryRequest()
            .setQuery(SolrSyntax.range(HistoryFields.RECEIVED_AT, range))
            .withFilter(DocumentSearch.DOCUMENTS_ONLY)
            .setLimit(0)
            .withFacet(
                "verdicts",
                new TermsFacetMap(HistoryFields.VERDICT).setLimit(Verdict.values().length))
            .withFacet("signatures", new TermsFacetMap(HistoryFields.SIGNATURES).setLimit(-1));
    QueryResponse response = SolrHistoryQueries.call(() -> request.process(client, collection));
    SlotCounts counts = SlotCounts.empty();
    buckets(response, "verdicts").forEach((v, n) -> counts.verdicts().put(Verdict.valueOf(v), n));
    counts.signatures().putAll(buckets(response, "signatures"));
    return counts;
  }

  static Map<String, Long> buckets(QueryResponse response, String facet) {
    Map<String, Long> counts = new LinkedHashMap<>();
    NestableJsonFacet facets = response.getJsonFacetingResponse();
    BucketBasedJsonFacet found = facets == null ? null : facets.getBucketBasedFacets(facet);
    if (found != null) {
      for (BucketJsonFacet bucket : found.getBuckets()) {
        counts.put(bucket.getVal().toString(), bucket.getCount());
      }
    }
    return counts;
  }

  /** The rollup document of one slot. */
  static SolrInputDocument rollup(Instant slot, long length, SlotCounts counts) {
    SolrInputDocument doc =
        RollupSlots.base(
            RollupSlots.ROLLUP + ":" + slot.toEpochMilli(), RollupSlots.ROLLUP, slot, length);
    doc.setField(HistoryFields.COUNTS, counts.verdictText());
    String signatures = counts.signatureText();
    if (!signatures.isEmpty()) {
      doc.setField(HistoryFields.SIGNATURE_COUNTS, signatures);
    }
    return doc;
  }

  /** Stops the schedule; a run in progress finishes its current slot. */
  @Override
  public void close() {
    schedule.close();
  }
}
