package io.github.avgateway.solr;

import io.github.avgateway.solr.HistoryCollections.Route;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.UpdateResponse;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.update.processor.DistributedUpdateProcessor.DistribPhase;
import org.apache.solr.update.processor.DistributingUpdateProcessorFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends history writes to where {@link HistoryCollections} routes them: to a single collection one
 * request, as before; to a time-routed alias one request per route, which is one request unless a
 * batch holds a document Solr would refuse. If Solr still refuses a request as unroutable (400: the
 * members changed since they were read), the members are read again and the whole write is sent
 * once more, routed strictly ({@link HistoryCollections#route}); if that fails too, the write fails
 * like any other (the caller retries it later, by when the members have settled). Writes are
 * idempotent (by id), so resending what a failed request had partly written changes nothing.
 */
final class HistoryUpdates {

  /**
   * The request parameter that makes a member collection of a routed alias take a write as it is.
   * Every member runs Solr's routed-alias update processor, which routes each add by receipt time
   * again (refusing the same documents the alias refuses) and sends every delete to all members,
   * unless the request says that the alias already distributed it: this parameter, the one Solr
   * sets on the requests it forwards to a member. The time-routed tests fail if it stops working.
   */
  static final String DIRECT = "alias." + DistributingUpdateProcessorFactory.DISTRIB_UPDATE_PARAM;

  private static final int BAD_REQUEST = SolrException.ErrorCode.BAD_REQUEST.code;
  private static final Logger log = LoggerFactory.getLogger(HistoryUpdates.class);

  private final SolrClient client;
  private final HistoryCollections collections;

  HistoryUpdates(SolrClient client, HistoryCollections collections) {
    this.client = client;
    this.collections = collections;
  }

  /**
   * Adds {@code documents} and then {@code markers}: no marker reaches Solr before the documents it
   * marks (the markers ride in the documents' request, after them, or in a later one). Every
   * document replaces a stored one with its id.
   *
   * @param commitWithinMillis the visibility delay asked for, or -1 for Solr's own
   */
  void add(
      List<SolrInputDocument> documents, List<SolrInputDocument> markers, int commitWithinMillis)
      throws Exception {
    add(documents, Set.of(), markers, commitWithinMillis);
  }

  /**
   * Like {@link #add(List, List, int)}, but the documents in {@code added} (compared by identity)
   * are added without Solr's overwrite: Lucene does not look their ids up in the index.
   */
  void add(
      List<SolrInputDocument> documents,
      Set<SolrInputDocument> added,
      List<SolrInputDocument> markers,
      int commitWithinMillis)
      throws Exception {
    try {
      send(documents, added, markers, commitWithinMillis, false);
    } catch (SolrException e) {
      if (!collections.timeRouted() || e.code() != BAD_REQUEST) {
        throw e;
      }
      log.info(
          "Solr refused a history write to {} ({}): reading its collections again and sending it"
              + " once more, strictly routed",
          collections.name(),
          e.getMessage());
      collections.refresh();
      send(documents, added, markers, commitWithinMillis, true);
    }
  }

  private void send(
      List<SolrInputDocument> documents,
      Set<SolrInputDocument> added,
      List<SolrInputDocument> markers,
      int commitWithinMillis,
      boolean strict)
      throws Exception {
    Map<Route, List<SolrInputDocument>> routes = byRoute(documents, strict);
    Map<Route, List<SolrInputDocument>> markerRoutes = byRoute(markers, strict);
    if (routes.size() == 1 && markerRoutes.keySet().equals(routes.keySet())) {
      routes.values().iterator().next().addAll(markerRoutes.values().iterator().next());
      markerRoutes = Map.of();
    }
    for (var route : routes.entrySet()) {
      process(request(route.getValue(), added, commitWithinMillis), route.getKey());
    }
    for (var route : markerRoutes.entrySet()) {
      process(request(route.getValue(), Set.of(), commitWithinMillis), route.getKey());
    }
  }

  private Map<Route, List<SolrInputDocument>> byRoute(
      List<SolrInputDocument> documents, boolean strict) {
    Map<Route, List<SolrInputDocument>> routes = new LinkedHashMap<>();
    for (SolrInputDocument doc : documents) {
      Date received = (Date) doc.getFieldValue(HistoryFields.RECEIVED_AT);
      Route route = collections.route(received.toInstant(), strict);
      routes.computeIfAbsent(route, r -> new ArrayList<>()).add(doc);
    }
    return routes;
  }

  private static UpdateRequest request(
      List<SolrInputDocument> documents, Set<SolrInputDocument> added, int commitWithinMillis) {
    UpdateRequest request = new UpdateRequest();
    for (SolrInputDocument doc : documents) {
      if (added.contains(doc)) {
        request.add(doc, Boolean.FALSE); // overwrite=false for this document only
      } else {
        request.add(doc);
      }
    }
    if (commitWithinMillis >= 0) {
      request.setCommitWithin(commitWithinMillis);
    }
    return request;
  }

  /**
   * Adds {@code documents} (what a marker's work produced), then removes {@code marker} from its
   * collection only if it still has the version read.
   *
   * @return false when the marker was written again meanwhile (its work is to be done again)
   */
  boolean addThenRemove(
      List<SolrInputDocument> documents, DirtyMarkers.Marker marker, int commitWithinMillis)
      throws Exception {
    add(documents, List.of(), commitWithinMillis);
    return deleteIfVersion(marker.collection(), marker.id(), marker.version(), commitWithinMillis);
  }

  /**
   * Deletes {@code id} from the collection {@code collection} (a single collection, or one member
   * of an alias) only if it still has {@code version}.
   *
   * @param commitWithinMillis the visibility delay asked for, or -1 for Solr's own
   * @return false when it has another version or none (Solr answered 409)
   */
  boolean deleteIfVersion(String collection, String id, long version, int commitWithinMillis)
      throws Exception {
    UpdateRequest request = new UpdateRequest();
    request.deleteById(id, version);
    if (commitWithinMillis >= 0) {
      request.setCommitWithin(commitWithinMillis);
    }
    try {
      process(request, new Route(collection, collections.timeRouted()));
      return true;
    } catch (SolrException e) {
      if (e.code() == SolrException.ErrorCode.CONFLICT.code) {
        return false;
      }
      throw e;
    }
  }

  /** Sends {@code request} to the name of {@code route}, answered OK or failing. */
  void process(UpdateRequest request, Route route) throws Exception {
    if (route.direct()) {
      request.setParam(DIRECT, DistribPhase.TOLEADER.toString());
    }
    UpdateResponse response = request.process(client, route.collection());
    if (response.getStatus() != 0) {
      throw new SolrHistoryException("update answered with status " + response.getStatus());
    }
  }
}
