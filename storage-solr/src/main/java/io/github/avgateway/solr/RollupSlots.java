package io.github.avgateway.solr;

import io.github.avgateway.core.port.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrInputDocument;

/**
 * The time slots the history's per-slot counts are kept for, and the documents that describe them.
 * A slot is a stretch of receipt time ({@link #length()}, dividing an hour) that starts at a
 * multiple of its length since the epoch. Three kinds of documents live beside the history
 * documents, each with {@code receivedAt} at its slot's start (so retention and a time-routed alias
 * treat them like the documents they count):
 *
 * <ul>
 *   <li>{@code dirty:<slot millis>} ({@link #DIRTY}): the slot's documents changed; written with
 *       every batch that holds documents of the slot, after them in the same update request;
 *   <li>{@code rollup:<slot millis>} ({@link #ROLLUP}): the slot's counts per verdict and per
 *       signature ({@link SlotCounts});
 *   <li>{@code dayDirty:<day millis>} ({@link #DAY_DIRTY}): a slot of the (UTC) day was counted;
 *       written with the slot's counts;
 *   <li>{@code day:<day millis>} ({@link #DAY}): the day's signature counts, added up from its
 *       slots' counts, with a digest of those rollups' versions ({@link #digest}).
 * </ul>
 *
 * {@link SolrRollups} turns dirty slots into counts and counted days into day sums; the history
 * page's queries read the counts of the hours they cover completely and count the rest from the
 * documents. A day's sum spares a month's top signatures from reading every slot's signature list
 * (4,464 lists of up to hundreds of names each); a sum whose digest no longer matches its slots' is
 * not used.
 */
public final class RollupSlots {

  static final String DIRTY = "dirty";
  static final String ROLLUP = "rollup";
  static final String DAY_DIRTY = "dayDirty";
  static final String DAY = "day";
  static final Duration DAY_LENGTH = Duration.ofDays(1);
  static final Duration HOUR = Duration.ofHours(1);

  /** The default slot: ten minutes. */
  public static final RollupSlots DEFAULT = new RollupSlots(Duration.ofMinutes(10));

  private final long lengthMillis;

  /**
   * @param length the slot length; divides an hour and is at least a second
   */
  public RollupSlots(Duration length) {
    long millis = length.toMillis();
    if (millis < 1000 || HOUR.toMillis() % millis != 0) {
      throw new IllegalArgumentException(
          "a rollup slot must divide an hour and last at least a second: " + length);
    }
    this.lengthMillis = millis;
  }

  public Duration length() {
    return Duration.ofMillis(lengthMillis);
  }

  /** The start of the slot that holds {@code instant}. */
  Instant slotOf(Instant instant) {
    return Instant.ofEpochMilli(Math.floorDiv(instant.toEpochMilli(), lengthMillis) * lengthMillis);
  }

  /** The dirty markers of the slots of {@code receivedAt}, one per distinct slot, in order met. */
  List<SolrInputDocument> markers(Collection<Instant> receivedAt) {
    Set<Instant> slots = new LinkedHashSet<>();
    receivedAt.forEach(r -> slots.add(slotOf(r)));
    List<SolrInputDocument> markers = new ArrayList<>(slots.size());
    for (Instant slot : slots) {
      markers.add(marker(slot, lengthMillis));
    }
    return markers;
  }

  static SolrInputDocument marker(Instant slot, long lengthMillis) {
    return base(markerId(slot), DIRTY, slot, lengthMillis);
  }

  /** The id of the dirty marker of the slot starting at {@code slot}. */
  static String markerId(Instant slot) {
    return DIRTY + ":" + slot.toEpochMilli();
  }

  /** The marker saying a slot of the day starting at {@code day} was counted. */
  static SolrInputDocument dayMarker(Instant day, long lengthMillis) {
    return base(DAY_DIRTY + ":" + day.toEpochMilli(), DAY_DIRTY, day, lengthMillis);
  }

  /** The start of the UTC day that holds {@code instant}. */
  static Instant dayOf(Instant instant) {
    long day = DAY_LENGTH.toMillis();
    return Instant.ofEpochMilli(Math.floorDiv(instant.toEpochMilli(), day) * day);
  }

  /**
   * One slot rollup's share of its day's digest: the digest of a day is the sum of its rollups'
   * shares, so it changes whenever a rollup is written again (a new {@code _version_}), added or
   * removed (retention), whatever the order the rollups are read in.
   */
  static long digest(Instant slot, long version) {
    long x = version ^ (slot.toEpochMilli() * 0x9E3779B97F4A7C15L);
    x = (x ^ (x >>> 33)) * 0xFF51AFD7ED558CCDL;
    x = (x ^ (x >>> 33)) * 0xC4CEB9FE1A85EC53L;
    return x ^ (x >>> 33);
  }

  /** A search for the documents of {@code kind} whose {@code receivedAt} is in {@code range}. */
  static SolrQuery ofKind(String kind, TimeRange range) {
    SolrQuery query = new SolrQuery(SolrSyntax.term(HistoryFields.KIND, kind));
    query.addFilterQuery(DocumentSearch.filter(SolrSyntax.range(HistoryFields.RECEIVED_AT, range)));
    return query;
  }

  static SolrInputDocument base(String id, String kind, Instant slot, long lengthMillis) {
    SolrInputDocument doc = new SolrInputDocument();
    doc.setField(HistoryFields.ID, id);
    doc.setField(HistoryFields.KIND, kind);
    doc.setField(HistoryFields.RECEIVED_AT, Date.from(slot));
    doc.setField(HistoryFields.SLOT_MILLIS, lengthMillis);
    return doc;
  }
}
