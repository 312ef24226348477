package io.github.avgateway.solr;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;

/**
 * The markers that {@link SolrRollups} works from ({@link RollupSlots}: a dirty slot, or a day with
 * a slot counted), each with the collection that holds it: the marker's removal names its version
 * and has to go to that one collection (through a time-routed alias a delete goes to every member,
 * and a member without the marker would refuse a versioned delete).
 */
final class DirtyMarkers {

  private DirtyMarkers() {}

  /**
   * A marker.
   *
   * @param collection the collection holding it (a member, in a time-routed alias)
   * @param kind {@link RollupSlots#DIRTY} or {@link RollupSlots#DAY_DIRTY}
   * @param document its start, slot length and version (docValues only: no stored field is read,
   *     which would decompress the block of history documents around the marker)
   */
  record Marker(String collection, String kind, SolrDocument document) {

    /** Derived from the start: {@code <kind>:<start millis>}, as {@link RollupSlots} names it. */
    String id() {
      return kind + ":" + slot().toEpochMilli();
    }

    /** The start of the marked slot or day. */
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
   * Up to {@code limit} markers of {@code kind} that start before {@code before}, oldest first,
   * read from each member in turn, oldest member first.
   *
   * @throws SolrHistoryException when Solr fails a query
   */
  static List<Marker> settled(
      SolrClient client, HistoryCollections collections, String kind, Instant before, int limit) {
    List<Marker> markers = new ArrayList<>();
    for (String member : collections.members().reversed()) {
      int rows = limit - markers.size();
      if (rows == 0) {
        break;
      }
      SolrQuery query = query(kind, before, rows);
      for (SolrDocument doc :
          SolrHistoryQueries.call(() -> client.query(member, query)).getResults()) {
        markers.add(new Marker(member, kind, doc));
      }
    }
    return markers;
  }

  private static SolrQuery query(String kind, Instant before, int rows) {
    SolrQuery query = new SolrQuery("*:*");
    query.addFilterQuery(DocumentSearch.filter(SolrSyntax.term(HistoryFields.KIND, kind)));
    query.addFilterQuery(
        DocumentSearch.filter(SolrSyntax.before(HistoryFields.RECEIVED_AT, before)));
    query.setFields(HistoryFields.RECEIVED_AT, HistoryFields.SLOT_MILLIS, HistoryFields.VERSION);
    query.set("sort", HistoryFields.RECEIVED_AT + " asc");
    query.setRows(rows);
    return query;
  }
}
