package io.github.avgateway.solr;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.request.json.JsonQueryRequest;
import org.apache.solr.client.solrj.request.json.QueryFacetMap;
import org.apache.solr.client.solrj.request.json.TermsFacetMap;
import org.apache.solr.client.solrj.response.json.BucketBasedJsonFacet;
import org.apache.solr.client.solrj.response.json.BucketJsonFacet;
import org.apache.solr.client.solrj.response.json.NestableJsonFacet;
import org.apache.solr.client.solrj.util.ClientUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and removes a second copy of a redelivered request's document after the fact. The first
 * document of a request is usually recorded as new, without Solr's overwrite ({@link
 * SolrHistoryRecorder#recordNew}); the document of its redelivery replaces it. With several
 * indexers on one history queue the two can be written in the other order (the first still waiting
 * in one indexer while another writes the redelivery), and then both stay. So every document of a
 * redelivered request written here is looked up again {@link #CHECKS after one and after ten
 * minutes}; of the copies found, all but the last written (the highest {@code _version_}) are
 * deleted, and their rollup slots are marked dirty so the per-slot counts are made again.
 *
 * <p>What is watched lives in memory, bounded by {@link #CAPACITY}: a process that stops within ten
 * minutes of writing a redelivered document, and a writer that sees more than {@code CAPACITY}
 * redelivered documents in ten minutes, check fewer (counted in {@link #unwatched()}).
 */
final class SecondCopies {

  /** How long after a redelivered document was written its id is looked up, once each. */
  static final List<Duration> CHECKS = List.of(Duration.ofMinutes(1), Duration.ofMinutes(10));

  /** The most ids watched at once. */
  static final int CAPACITY = 100_000;

  private static final int IDS_PER_QUERY = 500;
  private static final Logger log = LoggerFactory.getLogger(SecondCopies.class);

  private record Watched(String id, Instant written) {}

  private final SolrClient client;
  private final HistoryCollections collections;
  private final HistoryUpdates updates;
  private final RollupSlots slots;
  private final int commitWithinMillis;
  private final Clock clock;
  private final List<ArrayDeque<Watched>> rounds = new ArrayList<>();
  private final AtomicLong unwatched = new AtomicLong();
  private final AtomicLong removed = new AtomicLong();
  private final Object sweeping = new Object();
  private int size;

  SecondCopies(
      SolrClient client,
      HistoryCollections collections,
      HistoryUpdates updates,
      RollupSlots slots,
      int commitWithinMillis,
      Clock clock) {
    this.client = client;
    this.collections = collections;
    this.updates = updates;
    this.slots = slots;
    this.commitWithinMillis = commitWithinMillis;
    this.clock = clock;
    CHECKS.forEach(check -> rounds.add(new ArrayDeque<>()));
  }

  /** Watches the documents {@code ids} of redelivered requests, just accepted by Solr. */
  synchronized void watch(List<String> ids) {
    Instant now = clock.instant();
    for (String id : ids) {
      if (size >= CAPACITY) {
        if (unwatched.getAndIncrement() == 0) {
          log.warn(
              "more than {} redelivered documents written within {}: the rest are not checked"
                  + " for a second copy",
              CAPACITY,
              CHECKS.getLast());
        }
        continue;
      }
      rounds.getFirst().addLast(new Watched(id, now));
      size++;
    }
  }

  /** Ids watched and not yet checked for the last time. */
  synchronized int watched() {
    return size;
  }

  /** Redelivered documents not watched because {@link #CAPACITY} was reached. */
  long unwatched() {
    return unwatched.get();
  }

  /** Second copies deleted so far. */
  long removed() {
    return removed.get();
  }

  /**
   * Checks every watched id that is due at {@code now} and deletes the second copies found. One
   * sweep at a time.
   *
   * @return the copies deleted
   * @throws Exception when Solr fails a request (the ids due stay watched for the next sweep)
   */
  int sweep(Instant now) throws Exception {
    synchronized (sweeping) {
      return sweepDue(now);
    }
  }

  private int sweepDue(Instant now) throws Exception {
    int deleted = 0;
    for (int round = 0; round < rounds.size(); round++) {
      List<Watched> due = due(round, now);
      for (int from = 0; from < due.size(); from += IDS_PER_QUERY) {
        List<Watched> part = due.subList(from, Math.min(due.size(), from + IDS_PER_QUERY));
        deleted += removeSecondCopies(part.stream().map(Watched::id).toList());
        done(round, part);
      }
    }
    return deleted;
  }

  private synchronized List<Watched> due(int round, Instant now) {
    Instant writtenBefore = now.minus(CHECKS.get(round));
    List<Watched> due = new ArrayList<>();
    for (Watched w : rounds.get(round)) {
      if (w.written().isAfter(writtenBefore)) {
        break; // the rest were written later still
      }
      due.add(w);
    }
    return due;
  }

  /** Moves {@code part} (the head of its round) to the next round, or forgets it after the last. */
  private synchronized void done(int round, List<Watched> part) {
    ArrayDeque<Watched> queue = rounds.get(round);
    for (int i = 0; i < part.size(); i++) {
      Watched w = queue.pollFirst();
      if (round + 1 < rounds.size()) {
        rounds.get(round + 1).addLast(w);
      } else {
        size--;
      }
    }
  }

  /** One stored copy of a watched id. */
  private record Copy(String id, long version, Instant receivedAt) {}

  /** Deletes every copy of each id in {@code ids} but the last written; how many were deleted. */
  private int removeSecondCopies(List<String> ids) throws Exception {
    Map<String, List<Copy>> copies = new HashMap<>();
    for (Copy copy : copies(ids)) {
      copies.computeIfAbsent(copy.id(), k -> new ArrayList<>()).add(copy);
    }
    UpdateRequest deletes = new UpdateRequest();
    List<Instant> received = new ArrayList<>();
    for (List<Copy> same : copies.values()) {
      if (same.size() < 2) {
        continue;
      }
      long newest = same.stream().mapToLong(Copy::version).max().orElseThrow();
      for (Copy copy : same) {
        if (copy.version() != newest) {
          deletes.deleteByQuery(
              HistoryFields.ID
                  + ":"
                  + ClientUtils.escapeQueryChars(copy.id())
                  + " AND "
                  + HistoryFields.VERSION
                  + ":"
                  + copy.version());
          received.add(copy.receivedAt());
        }
      }
    }
    if (received.isEmpty()) {
      return 0;
    }
    if (commitWithinMillis >= 0) {
      deletes.setCommitWithin(commitWithinMillis);
    }
    updates.process(deletes, new HistoryCollections.Route(collections.name(), false));
    // the counts of the deleted copies' slots are made again
    updates.add(List.of(), slots.markers(received), commitWithinMillis);
    removed.addAndGet(received.size());
    log.info(
        "removed {} second copies of redelivered requests' documents (written in the other order"
            + " by two indexers)",
        received.size());
    return received.size();
  }

  /**
   * Every stored copy of {@code ids} (searchable ones: written at least a soft commit ago), in one
   * JSON request (a POST: 500 ids do not fit in a URL). Read as facets (per id, the versions and
   * their receipt times), not as documents: a sharded collection fetches a result's fields by id,
   * which cannot tell two copies apart.
   */
  private List<Copy> copies(List<String> ids) throws Exception {
    JsonQueryRequest request = new JsonQueryRequest().setLimit(0);
    StringBuilder q = new StringBuilder(HistoryFields.ID).append(":(");
    for (int i = 0; i < ids.size(); i++) {
      String term = HistoryFields.ID + ":" + ClientUtils.escapeQueryChars(ids.get(i));
      q.append(i == 0 ? "" : " OR ").append(term);
      request.withFacet(
          "q" + i,
          new QueryFacetMap(term)
              .withSubFacet(
                  "v",
                  new TermsFacetMap(HistoryFields.VERSION)
                      .setLimit(-1)
                      .withStatSubFacet("r", "min(" + HistoryFields.RECEIVED_AT + ")")));
    }
    request.setQuery(q.append(')').toString());
    NestableJsonFacet facets =
        request.process(client, collections.name()).getJsonFacetingResponse();
    List<Copy> copies = new ArrayList<>();
    for (int i = 0; facets != null && i < ids.size(); i++) {
      NestableJsonFacet perId = facets.getQueryFacet("q" + i);
      BucketBasedJsonFacet versions = perId == null ? null : perId.getBucketBasedFacets("v");
      if (versions == null) {
        continue;
      }
      for (BucketJsonFacet bucket : versions.getBuckets()) {
        copies.add(
            new Copy(
                ids.get(i),
                ((Number) bucket.getVal()).longValue(),
                instant(bucket.getStatValue("r"))));
      }
    }
    return copies;
  }

  private static Instant instant(Object value) {
    return value instanceof Date date
        ? date.toInstant()
        : Instant.ofEpochMilli(((Number) value).longValue());
  }
}
