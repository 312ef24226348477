package io.github.avgateway.solr;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;

/**
 * An open connection to the history collection: the client, the collection (core) name, and
 * whatever runs behind the client in-process. Closing it closes both. Thread-safe; shared by the
 * recorder, the queries and retention.
 */
public final class SolrHistoryStore implements AutoCloseable {

  private final SolrClient client;
  private final String collection;
  private final Runnable shutdown;

  SolrHistoryStore(SolrClient client, String collection, Runnable shutdown) {
    this.client = Objects.requireNonNull(client, "client");
    this.collection = Objects.requireNonNull(collection, "collection");
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

  public String collection() {
    return collection;
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
