package io.github.avgateway.solr;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.params.CommonParams;
import org.apache.solr.common.params.ModifiableSolrParams;

/**
 * History documents read by id with real-time get, which sees a document as soon as Solr accepted
 * it. Real-time get answers from one collection only: through an alias of several it reads just the
 * member the request happens to reach. So each member is asked in turn, newest first; in a single
 * collection that is one request, in a time-routed alias one per member at most (a document
 * received lately is in the newest, found by the first request).
 */
final class StoredCopies {

  private StoredCopies() {}

  /**
   * One stored document and the collection that holds it.
   *
   * @param collection the member collection (or the single collection)
   * @param document the stored fields asked for
   */
  record Copy(String collection, SolrDocument document) {

    String id() {
      return (String) document.getFirstValue(HistoryFields.ID);
    }

    Instant receivedAt() {
      return ((Date) document.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant();
    }

    long version() {
      return ((Number) document.getFirstValue(HistoryFields.VERSION)).longValue();
    }
  }

  /** The document {@code id} in the newest member holding one, or null when none does. */
  static SolrDocument newest(SolrClient client, HistoryCollections collections, String id)
      throws Exception {
    for (String member : collections.members()) {
      SolrDocument doc = client.getById(member, id);
      if (doc != null) {
        return doc;
      }
    }
    return null;
  }

  /**
   * Every stored copy of the documents {@code ids}, with their id, receipt time and version: a
   * redelivered request received in another interval than its first delivery has a copy in each
   * interval's collection until the writer removes the earlier one.
   */
  static List<Copy> all(SolrClient client, HistoryCollections collections, Collection<String> ids)
      throws Exception {
    ModifiableSolrParams get = new ModifiableSolrParams();
    get.set(CommonParams.QT, "/get");
    get.set("ids", ids.toArray(String[]::new));
    get.set("fl", HistoryFields.ID + "," + HistoryFields.RECEIVED_AT + "," + HistoryFields.VERSION);
    List<Copy> copies = new ArrayList<>();
    for (String member : collections.members()) {
      // a POST: the ids of a batch of redeliveries do not fit in a URL (Solr takes 8 KiB)
      for (SolrDocument doc : client.query(member, get, SolrRequest.METHOD.POST).getResults()) {
        copies.add(new Copy(member, doc));
      }
    }
    return copies;
  }
}
