package io.github.avgateway.solr;

import io.github.avgateway.core.port.Availability;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.UpdateResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;

/**
 * Sends one batch as one update request with {@code commitWithin} and settles its futures: all
 * complete when Solr answered OK, all fail otherwise. Never commits. After the documents, the same
 * request marks their rollup slots dirty ({@link RollupSlots}); for a redelivered request, whose
 * new document replaces one received earlier, the earlier document's slot too.
 */
final class BatchWriter {

  /** A document id that no request can have (request ids are always prefixed by a transport). */
  static final String PROBE_ID = "avgateway-write-probe";

  private final SolrClient client;
  private final String collection;
  private final int commitWithinMillis;
  private final SolrHistoryGate gate;
  private final HistoryBatchObserver observer;
  private final RollupSlots slots;

  BatchWriter(
      SolrClient client,
      String collection,
      Duration commitWithin,
      SolrHistoryGate gate,
      HistoryBatchObserver observer,
      RollupSlots slots) {
    this.slots = slots;
    this.client = client;
    this.collection = collection;
    this.commitWithinMillis = Math.toIntExact(commitWithin.toMillis());
    this.gate = gate;
    this.observer = observer;
  }

  void write(List<PendingRecord> batch) {
    List<SolrInputDocument> docs = new ArrayList<>(batch.size() + 1);
    List<Instant> received = new ArrayList<>(batch.size());
    List<String> redelivered = new ArrayList<>();
    for (PendingRecord pending : batch) {
      SolrInputDocument doc = pending.document();
      docs.add(doc);
      received.add(((Date) doc.getFieldValue(HistoryFields.RECEIVED_AT)).toInstant());
      if (doc.containsKey(HistoryFields.REDELIVERED)) {
        redelivered.add((String) doc.getFieldValue(HistoryFields.ID));
      }
    }
    long started = System.nanoTime();
    try {
      received.addAll(earlierReceipts(redelivered));
      docs.addAll(slots.markers(received));
      UpdateRequest request = new UpdateRequest();
      request.add(docs);
      request.setCommitWithin(commitWithinMillis);
      send(request);
    } catch (Exception e) {
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
      return;
    }
    observe(batch.size(), started, true);
    gate.writesAccepted();
    batch.forEach(p -> p.accepted().complete(null));
  }

  /** When the stored documents of {@code ids} (if any) were received. */
  private List<Instant> earlierReceipts(List<String> ids) throws Exception {
    if (ids.isEmpty()) {
      return List.of();
    }
    ModifiableSolrParams fields = new ModifiableSolrParams();
    fields.set("fl", HistoryFields.ID + "," + HistoryFields.RECEIVED_AT);
    List<Instant> earlier = new ArrayList<>();
    for (SolrDocument doc : client.getById(collection, ids, fields)) {
      earlier.add(((Date) doc.getFirstValue(HistoryFields.RECEIVED_AT)).toInstant());
    }
    return earlier;
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
      send(request);
      gate.writesAccepted();
      return true;
    } catch (Exception e) {
      gate.writesFailed(describe(e));
      return false;
    }
  }

  private void send(UpdateRequest request) throws Exception {
    UpdateResponse response = request.process(client, collection);
    if (response.getStatus() != 0) {
      throw new SolrHistoryException("update answered with status " + response.getStatus());
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
