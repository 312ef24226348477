package io.github.avgateway.solr;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open connection to the history collection: the client, the collection (core) name or the
 * time-routed alias ({@link #collections()}), and whatever runs behind the client in-process.
 * Closing it closes both. Thread-safe; shared by the recorder, the queries and retention.
 */
public final class SolrHistoryStore implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SolrHistoryStore.class);

  /** How long a request waits for a store that is opening in the background. */
  private static final Duration OPEN_WAIT = Duration.ofMinutes(5);

  private final SolrClient client;
  private final HistoryCollections collections;
  private final Runnable shutdown;

  SolrHistoryStore(SolrClient client, String collection, Runnable shutdown) {
    this(client, HistoryCollections.single(collection), shutdown);
  }

  private SolrHistoryStore(SolrClient client, HistoryCollections collections, Runnable shutdown) {
    this.client = Objects.requireNonNull(client, "client");
    this.collections = Objects.requireNonNull(collections, "collections");
    this.shutdown = Objects.requireNonNull(shutdown, "shutdown");
  }

  /** Wraps a client whose lifecycle the caller keeps; {@link #close()} closes the client. */
  public static SolrHistoryStore of(SolrClient client, String collection) {
    return new SolrHistoryStore(client, collection, () -> {});
  }

  /**
   * Starts (or reopens) an in-process Solr under {@code home} with one core named {@code core} from
   * the history configset.
   */
  public static SolrHistoryStore embedded(Path home, String core) {
    return EmbeddedSolr.open(home, core);
  }

  /**
   * Like {@link #embedded}, but opens the core on a background thread and returns at once, so that
   * the rest of the application starts meanwhile. Until the core is open, {@code gate}'s writes are
   * down ("the embedded Solr is starting": front-ends take no requests) and requests through {@link
   * #client()} wait for it; a failed open keeps the gate down with the reason. Closing waits for an
   * open in progress, then closes the store.
   */
  public static SolrHistoryStore embeddedInBackground(
      Path home, String core, SolrHistoryGate gate) {
    gate.writesFailed("the embedded Solr is starting");
    CompletableFuture<SolrHistoryStore> opening = new CompletableFuture<>();
    Thread.ofPlatform()
        .name("solr-history-open")
        .daemon()
        .start(() -> {
          try {
            opening.complete(EmbeddedSolr.open(home, core));
            gate.writesAccepted();
          } catch (RuntimeException | Error e) {
            String why = failedStart(home, e);
            gate.writesFailed(why);
            opening.completeExceptionally(e);
          }
        });
    return new SolrHistoryStore(
        new StartingSolrClient(opening, OPEN_WAIT), core, () -> closeWhenOpened(opening));
  }

  /**
   * Logs why the embedded Solr under {@code home} did not start and returns it for the gate. A home
   * another process holds (its index is locked: a second gateway from the same checkout with the
   * same home) gets one line saying what to set, not a stack trace.
   */
  private static String failedStart(Path home, Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof LockObtainFailedException
          || String.valueOf(cause.getMessage()).contains("LockObtainFailedException")) {
        String why =
            "the embedded Solr home "
                + home.toAbsolutePath().normalize()
                + " is in use by another process; give this gateway its own with"
                + " --avgateway.solr.embedded.home=DIR (its history waits on the broker meanwhile)";
        log.error(why);
        return why;
      }
    }
    log.error("the embedded Solr under {} failed to start", home, e);
    return "the embedded Solr failed to start: " + BatchWriter.describe(e);
  }

  private static void closeWhenOpened(CompletableFuture<SolrHistoryStore> opening) {
    SolrHistoryStore store;
    try {
      store = opening.join();
    } catch (CompletionException e) {
      return; // nothing was opened
    }
    store.close();
  }

  /**
   * Uses the SolrCloud collection {@code collection}, creating it from the history configset
   * (uploaded if the cluster lacks it) with {@code shards} shards of {@code replicas} replicas when
   * it does not exist. Closes {@code client} if that fails.
   */
  public static SolrHistoryStore cloud(
      CloudSolrClient client, String collection, int shards, int replicas) {
    try {
      CloudCollections.ensure(client, collection, shards, replicas);
    } catch (RuntimeException e) {
      closeQuietly(client, e);
      throw e;
    }
    return new SolrHistoryStore(client, collection, () -> {});
  }

  /**
   * Uses the SolrCloud time-routed alias {@code alias} ({@link TimeRoutedCollections}), creating it
   * when it does not exist ({@link TimeRoutedAliases}) with its first collection at the start of
   * the current interval. Closes {@code client} if that fails.
   */
  public static SolrHistoryStore timeRouted(
      CloudSolrClient client, String alias, int shards, int replicas, TimeRouting routing) {
    Instant first = routing.intervalStart(Instant.now());
    return timeRouted(client, alias, shards, replicas, routing, first);
  }

  /**
   * Like {@link #timeRouted(CloudSolrClient, String, int, int, TimeRouting)}, with the first
   * collection starting at {@code firstStart} (whole seconds) if the alias is created.
   */
  public static SolrHistoryStore timeRouted(
      CloudSolrClient client,
      String alias,
      int shards,
      int replicas,
      TimeRouting routing,
      Instant firstStart) {
    try {
      TimeRoutedAliases.ensure(client, alias, shards, replicas, routing, firstStart);
    } catch (RuntimeException e) {
      closeQuietly(client, e);
      throw e;
    }
    TimeRoutedCollections collections =
        new TimeRoutedCollections(alias, client.getClusterStateProvider(), Clock.systemUTC());
    return new SolrHistoryStore(client, collections, () -> {});
  }

  private static void closeQuietly(SolrClient client, RuntimeException failure) {
    try {
      client.close();
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  public SolrClient client() {
    return client;
  }

  /** The name searches go through: the collection, core or alias. */
  public String collection() {
    return collections.name();
  }

  /** Where documents are and where each write goes. */
  public HistoryCollections collections() {
    return collections;
  }

  @Override
  public void close() {
    try {
      shutdown.run();
    } finally {
      try {
        client.close();
      } catch (IOException e) {
        throw new SolrHistoryException("closing the Solr client failed", e);
      }
    }
  }
}
