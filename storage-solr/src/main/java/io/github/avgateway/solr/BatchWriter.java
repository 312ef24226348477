package io.github.avgateway.solr;

import io.github.avgateway.core.port.Availability;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrInputDocument;

/**
 * Sends one batch as one update request with {@code commitWithin} and settles its futures: all
 * complete when Solr answered OK, all fail otherwise. Never commits. After the documents, the same
 * request marks their rollup slots dirty ({@link RollupSlots}); for a redelivered request, whose
 * new document replaces one received earlier, the earlier document's slot too. A document recorded
 * as new ({@link PendingRecord#replaces()} false) is added without Solr's overwrite; the documents
 * of redelivered requests are checked again later for a second copy ({@link SecondCopies}).
 *
 * <p>In a time-routed alias ({@link HistoryCollections}) a batch holding a document Solr would
 * refuse is sent as one request per route ({@link HistoryUpdates}), and a redelivered request
 * received in another interval than before would leave its earlier document in the earlier
 * interval's collection: after the batch is accepted, every earlier copy is deleted if it still has
 * the version read before (a copy the new document overwrote in the same collection has another
 * one), so one document per request id remains.
 */
final class BatchWriter {

  /** A document id that no request can have (request ids are always prefixed by a transport). */
  static final String PROBE_ID = "avgateway-write-probe";

  private final SolrClient client;
  private final HistoryCollections collections;
  private final HistoryUpdates updates;
  private final int commitWithinMillis;
  private final SolrHistoryGate gate;
  private final HistoryBatchObserver observer;
  private final RollupSlots slots;
  private final SecondCopies secondCopies;

  BatchWriter(
      SolrClient client,
      HistoryCollections collections,
      Duration commitWithin,
      SolrHistoryGate gate,
      HistoryBatchObserver observer,
      RollupSlots slots) {
    this.slots = slots;
    this.client = client;
    this.collections = collections;
    this.updates = new HistoryUpdates(client, collections);
    this.commitWithinMillis = Math.toIntExact(commitWithin.toMillis());
    this.gate = gate;
    this.observer = observer;
    this.secondCopies =
        new SecondCopies(
            client, collections, updates, slots, commitWithinMillis, Clock.systemUTC());
  }

  void write(List<PendingRecord> batch) {
    List<SolrInputDocument> docs = new ArrayList<>(batch.size());
    List<Instant> received = new ArrayList<>(batch.size());
    List<String> redelivered = new ArrayList<>();
    Set<SolrInputDocument> added = Collections.newSetFromMap(new IdentityHashMap<>());
    for (PendingRecord pending : batch) {
      SolrInputDocument doc = pending.document();
      docs.add(doc);
      if (!pending.replaces()) {
        added.add(doc);
      }
      received.add(((Date) doc.getFieldValue(HistoryFields.RECEIVED_AT)).toInstant());
      if (doc.containsKey(HistoryFields.REDELIVERED)) {
        redelivered.add((String) doc.getFieldValue(HistoryFields.ID));
      }
    }
    long started = System.nanoTime();
    try {
      List<StoredCopies.Copy> earlier = earlierCopies(redelivered);
      earlier.forEach(copy -> received.add(copy.receivedAt()));
      updates.add(docs, added, slots.markers(received), commitWithinMillis);
      removeReplaced(earlier);
    } catch (Exception e) {
      failed(batch, started, e);
      return;
    }
    secondCopies.watch(redelivered);
    observe(batch.size(), started, true);
    gate.writesAccepted();
    batch.forEach(p -> p.accepted().complete(null));
  }

  private void failed(List<PendingRecord> batch, long started, Exception e) {
    observe(batch.size(), started, false);
    String why = describe(e);
    if (why.contains("unknown field")) {
      why +=
          "; the collection was made with another history schema than this version's ("
              + HistoryConfigset.SCHEMA_VERSION
              + "): use a new collection (storage-solr/README.md, Upgrading)";
    }
    gate.writesFailed(why);
    SolrHistoryException failure =
        new SolrHistoryException(
            "Solr did not accept a batch of " + batch.size() + " documents: " + why, e);
    batch.forEach(p -> p.accepted().completeExceptionally(failure));
  }

  /** The stored documents (if any) of the redelivered requests {@code ids}. */
  private List<StoredCopies.Copy> earlierCopies(List<String> ids) throws Exception {
    return ids.isEmpty() ? List.of() : StoredCopies.all(client, collections, ids);
  }

  /**
   * Deletes the earlier copies of redelivered documents that the batch did not overwrite (in a
   * time-routed alias, those in another member than the new document). A delete names the version
   * read before the batch, so it never removes the new document.
   */
  private void removeReplaced(List<StoredCopies.Copy> earlier) throws Exception {
    if (!collections.timeRouted()) {
      return; // one collection: the new document overwrote the earlier one
    }
    for (StoredCopies.Copy copy : earlier) {
      updates.deleteIfVersion(copy.collection(), copy.id(), copy.version(), commitWithinMillis);
    }
  }

  /** The redelivered requests' documents checked again for a second copy. */
  SecondCopies secondCopies() {
    return secondCopies;
  }

  private void observe(int documents, long startedNanos, boolean accepted) {
    try {
      observer.batch(documents, Duration.ofNanos(System.nanoTime() - startedNanos), accepted);
    } catch (RuntimeException e) {
      // Observing is best effort: it never changes what Solr answered.
    }
  }

  /**
   * Checks that Solr accepts writes, without changing any document: deletes an id that never
   * exists. Updates the gate either way.
   */
  boolean probe() {
    UpdateRequest request = new UpdateRequest();
    request.deleteById(PROBE_ID);
    try {
      updates.process(request, new HistoryCollections.Route(collections.name(), false));
      gate.writesAccepted();
      return true;
    } catch (Exception e) {
      gate.writesFailed(describe(e));
      return false;
    }
  }

  /**
   * Marks writes down because documents expired in the queue; the next accepted batch clears it.
   */
  void tooSlow(String why) {
    gate.writesFailed(why);
  }

  boolean isDown() {
    return gate.writes() instanceof Availability.Down;
  }

  static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (root != e && root.getMessage() != null) {
      message = message + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
    return message;
  }
}
