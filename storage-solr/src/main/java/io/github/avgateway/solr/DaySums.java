package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
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
  private final String collection;
  private final RollupSlots slots;
  private final int commitWithinMillis;

  DaySums(SolrClient client, String collection, RollupSlots slots, int commitWithinMillis) {
    this.client = client;
    this.collection = collection;
    this.slots = slots;
    this.commitWithinMillis = commitWithinMillis;
  }

  /** The markers of days that ended before {@code endedBefore}, oldest first. */
  List<SolrDocument> markedDays(Instant endedBefore) {
    SolrQuery query = new SolrQuery("*:*");
    query.addFilterQuery(
        DocumentSearch.filter(SolrSyntax.term(HistoryFields.KIND, RollupSlots.DAY_DIRTY)));
    query.addFilterQuery(
        DocumentSearch.filter(
            SolrSyntax.before(
                HistoryFields.RECEIVED_AT, endedBefore.minus(RollupSlots.DAY_LENGTH))));
    query.setFields(HistoryFields.ID, HistoryFields.RECEIVED_AT, HistoryFields.VERSION);
    query.set("sort", HistoryFields.RECEIVED_AT + " asc");
    query.setRows(DAYS_PER_RUN);
    return SolrHistoryQueries.call(() -> client.query(collection, query)).getResults();
  }

  /**
   * Sums the marker's day; false when the day still has a dirty slot or was marked again meanwhile
   * (its marker stays for a later run).
   */
  boolean sum(SolrDocument marker) {
    Instant day = ((Date) marker.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
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
    UpdateRequest update = new UpdateRequest();
    update.add(daySum(day, slotMillis, total, digest));
    update.deleteById(
        (String) marker.getFirstValue(HistoryFields.ID),
        ((Number) marker.getFirstValue(HistoryFields.VERSION)).longValue());
    update.setCommitWithin(commitWithinMillis);
    try {
      update.process(client, collection);
      return true;
    } catch (SolrException e) {
      if (e.code() == SolrException.ErrorCode.CONFLICT.code) {
        return false;
      }
      throw new SolrHistoryException("writing the sum of day " + day + " failed: " + e, e);
    } catch (Exception e) {
      throw new SolrHistoryException(
          "writing the sum of day " + day + " failed: " + BatchWriter.describe(e), e);
    }
  }

  private boolean hasDirtySlot(TimeRange range) {
    SolrQuery query = new SolrQuery(SolrSyntax.term(HistoryFields.KIND, RollupSlots.DIRTY));
    query.addFilterQuery(DocumentSearch.filter(SolrSyntax.range(HistoryFields.RECEIVED_AT, range)));
    query.setRows(0);
    return SolrHistoryQueries.call(() -> client.query(collection, query)).getResults().getNumFound()
        > 0;
  }

  private List<SolrDocument> rollups(TimeRange range) {
    SolrQuery query = new SolrQuery(SolrSyntax.term(HistoryFields.KIND, RollupSlots.ROLLUP));
    query.addFilterQuery(DocumentSearch.filter(SolrSyntax.range(HistoryFields.RECEIVED_AT, range)));
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
