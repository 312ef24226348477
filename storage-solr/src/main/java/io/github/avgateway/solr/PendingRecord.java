package io.github.avgateway.solr;

import java.util.concurrent.CompletableFuture;
import org.apache.solr.common.SolrInputDocument;

/**
 * A document waiting in the recorder's queue, with the future its caller holds.
 *
 * @param document the Solr document
 * @param accepted completed when Solr answered OK for the batch holding the document
 * @param enqueuedNanos {@link System#nanoTime()} when it was queued
 * @param replaces whether a stored copy of the document may exist and is to be replaced; false only
 *     for a document recorded with {@link SolrHistoryRecorder#recordNew}
 */
record PendingRecord(
    SolrInputDocument document,
    CompletableFuture<Void> accepted,
    long enqueuedNanos,
    boolean replaces) {}
