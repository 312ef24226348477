package io.github.avgateway.solr;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A view of the members that lags behind Solr's: it sends everything through the alias until Solr
 * refuses a write, then routes as the store does.
 */
record LaggingView(HistoryCollections store, AtomicInteger refreshed)
    implements HistoryCollections {

  @Override
  public String name() {
    return store.name();
  }

  @Override
  public List<String> members() {
    return store.members();
  }

  @Override
  public Route route(Instant receivedAt, boolean strict) {
    return strict ? store.route(receivedAt, true) : new Route(store.name(), false);
  }

  @Override
  public void refresh() {
    refreshed.incrementAndGet();
    store.refresh();
  }

  @Override
  public boolean timeRouted() {
    return true;
  }
}
