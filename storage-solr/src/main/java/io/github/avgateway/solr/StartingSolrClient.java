package io.github.avgateway.solr;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.common.util.NamedList;

/**
 * A client for a store that is still opening in the background: each request waits for the open to
 * finish (at most {@code wait}), then goes to the opened store's client. A request fails with
 * {@link SolrServerException} when the store failed to open or did not open in time. Closing does
 * not close the store; its owner does.
 */
final class StartingSolrClient extends SolrClient {

  private static final long serialVersionUID = 1L;

  private final transient CompletableFuture<SolrHistoryStore> opening;
  private final Duration wait;

  StartingSolrClient(CompletableFuture<SolrHistoryStore> opening, Duration wait) {
    this.opening = opening;
    this.wait = wait;
  }

  @Override
  public NamedList<Object> request(SolrRequest<?> request, String collection)
      throws SolrServerException, IOException {
    return opened().client().request(request, collection);
  }

  private SolrHistoryStore opened() throws SolrServerException {
    try {
      return opening.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new SolrServerException("the embedded Solr is still starting", e);
    } catch (ExecutionException e) {
      throw new SolrServerException("the embedded Solr failed to start", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SolrServerException("interrupted while the embedded Solr was starting", e);
    }
  }

  @Override
  public void close() {
    // the store that owns the opened client closes it
  }
}
