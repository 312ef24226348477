package io.github.avgateway.solr;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;

/**
 * The dirty markers of the per-slot counts ({@link RollupSlots}) that {@link SolrRollups} counts,
 * each with the collection that holds it: the marker's removal names its version and has to go to
 * that one collection (through a time-routed alias a delete goes to every member).
 */
final class DirtyMarkers {

  private DirtyMarkers() {}

  /**
   * A dirty marker.
   *
   * @param collection the collection holding it (a member, in a time-routed alias)
   * @param document its slot start, slot length and version (docValues only: no stored field is
   *     read, which would decompress the block of history documents around the marker)
   */
  record Marker(String collection, SolrDocument document) {

    /** Derived from the slot: the id is a stored field, which only docValues are read here. */
    String id() {
      return RollupSlots.markerId(slot());
    }

    Instant slot() {
      return ((Date) document.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
    }

    long slotMillis() {
      return ((Number) document.getFirstValue(HistoryFields.SLOT_MILLIS)).longValue();
    }

    long version() {
      return ((Number) document.getFirstValue(HistoryFields.VERSION)).longValue();
    }
  }

  /**
   * Up to {@code limit} markers of slots that start before {@code settledBefore}, oldest first,
   * read from each member in turn, oldest member first.
   *
   * @throws SolrHistoryException when Solr fails a query
   */
  static List<Marker> settled(
      SolrClient client, HistoryCollections collections, Instant settledBefore, int limit) {
    List<Marker> markers = new ArrayList<>();
    for (String member : collections.members().reversed()) {
      int rows = limit - markers.size();
      if (rows == 0) {
        break;
      }
      SolrQuery query = query(settledBefore, rows);
      for (SolrDocument doc :
          SolrHistoryQueries.call(() -> client.query(member, query)).getResults()) {
        markers.add(new Marker(member, doc));
      }
    }
    return markers;
  }

  private static SolrQuery query(Instant settledBefore, int rows) {
    SolrQuery query = new SolrQuery("*:*");
    query.addFilterQuery(
        DocumentSearch.filter(SolrSyntax.term(HistoryFields.KIND, RollupSlots.DIRTY)));
    query.addFilterQuery(
        DocumentSearch.filter(SolrSyntax.before(HistoryFields.RECEIVED_AT, settledBefore)));
    query.setFields(HistoryFields.RECEIVED_AT, HistoryFields.SLOT_MILLIS, HistoryFields.VERSION);
    query.set("sort", HistoryFields.RECEIVED_AT + " asc");
    query.setRows(rows);
    return query;
  }
}
