package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * Adds up the signature counts of whole days ({@link RollupSlots#DAY}) from their slots' counts:
 * for each day marked ({@link RollupSlots#DAY_DIRTY}, written with every slot's counts) that has
 * ended, and none of whose slots is still marked dirty, writes the day's sum with the digest of the
 * rollups it read and removes the day's marker only if no slot of the day was counted again
 * meanwhile (the delete names the marker's {@code _version_}). Readers use a sum only while its
 * digest matches the day's rollups ({@link CoveredSignatures}), so a sum is never wrong, at worst
 * unused until the next run writes it again.
 */
final class DaySums {

  static final int DAYS_PER_RUN = 50;

  private final SolrClient client;
  private final HistoryCollections collections;
  private final String collection;
  private final HistoryUpdates updates;
  private final RollupSlots slots;
  private final int commitWithinMillis;

  /**
   * @param collections the history (a single collection, or a time-routed alias, where a day's sum
   *     goes where a document of the day's start goes)
   */
  DaySums(
      SolrClient client,
      HistoryCollections collections,
      RollupSlots slots,
      int commitWithinMillis) {
    this.client = client;
    this.collections = collections;
    this.collection = collections.name();
    this.updates = new HistoryUpdates(client, collections);
    this.slots = slots;
    this.commitWithinMillis = commitWithinMillis;
  }

  /** The markers of days that ended before {@code endedBefore}, oldest first. */
  List<DirtyMarkers.Marker> markedDays(Instant endedBefore) {
    return DirtyMarkers.settled(
        client,
        collections,
        RollupSlots.DAY_DIRTY,
        endedBefore.minus(RollupSlots.DAY_LENGTH),
        DAYS_PER_RUN);
  }

  /**
   * Sums the marker's day; false when the day still has a dirty slot or was marked again meanwhile
   * (its marker stays for a later run).
   */
  boolean sum(DirtyMarkers.Marker marker) {
    Instant day = marker.slot();
    TimeRange range = new TimeRange(day, day.plus(RollupSlots.DAY_LENGTH));
    if (hasDirtySlot(range)) {
      return false;
    }
    long slotMillis = slots.length().toMillis();
    SlotCounts total = SlotCounts.empty();
    long digest = 0;
    for (SolrDocument rollup : rollups(range)) {
      if (((Number) rollup.getFirstValue(HistoryFields.SLOT_MILLIS)).longValue() == slotMillis) {
        Instant slot = ((Date) rollup.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
        long version = ((Number) rollup.getFirstValue(HistoryFields.VERSION)).longValue();
        digest += RollupSlots.digest(slot, version);
        String text = (String) rollup.getFirstValue(HistoryFields.SIGNATURE_COUNTS);
        total.add(SlotCounts.parse(null, text));
      }
    }
    try {
      return updates.addThenRemove(
          List.of(daySum(day, slotMillis, total, digest)), marker, commitWithinMillis);
    } catch (Exception e) {
      throw new SolrHistoryException(
          "writing the sum of day " + day + " failed: " + BatchWriter.describe(e), e);
    }
  }

  private boolean hasDirtySlot(TimeRange range) {
    SolrQuery query = RollupSlots.ofKind(RollupSlots.DIRTY, range);
    query.setRows(0);
    return SolrHistoryQueries.call(() -> client.query(collection, query)).getResults().getNumFound()
        > 0;
  }

  private List<SolrDocument> rollups(TimeRange range) {
    SolrQuery query = RollupSlots.ofKind(RollupSlots.ROLLUP, range);
    query.setFields(
        HistoryFields.RECEIVED_AT,
        HistoryFields.SLOT_MILLIS,
        HistoryFields.SIGNATURE_COUNTS,
        HistoryFields.VERSION);
    query.setRows(
        Math.toIntExact(2 * RollupSlots.DAY_LENGTH.toMillis() / slots.length().toMillis() + 10));
    return SolrHistoryQueries.call(() -> client.query(collection, query)).getResults();
  }

  static SolrInputDocument daySum(Instant day, long slotMillis, SlotCounts total, long digest) {
    SolrInputDocument doc =
        RollupSlots.base(
            RollupSlots.DAY + ":" + day.toEpochMilli(), RollupSlots.DAY, day, slotMillis);
    String signatures = total.signatureText();
    if (!signatures.isEmpty()) {
      doc.setField(HistoryFields.SIGNATURE_COUNTS, signatures);
    }
    doc.setField(HistoryFields.SOURCE_DIGEST, digest);
    return doc;
  }
}
