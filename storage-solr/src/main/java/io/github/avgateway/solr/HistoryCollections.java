package io.github.avgateway.solr;

import java.time.Instant;
import java.util.List;

/**
 * Where the history is: the name searches go through, the collections that hold documents, and
 * where each write goes. One collection (or core) in every mode but a time-routed alias ({@link
 * TimeRoutedCollections}), where a document whose receipt time Solr would refuse is sent to a
 * member collection by name.
 */
public interface HistoryCollections {

  /** The collection, core or alias that searches go through (and writes Solr routes). */
  String name();

  /** The collections that hold documents, newest first; one for a single collection. */
  List<String> members();

  /**
   * Where a document received at {@code receivedAt} is written.
   *
   * @param strict after Solr refused a request as unroutable (and {@link #refresh()}): send through
   *     the alias only what Solr surely routes (received between the oldest member's start and
   *     now), so that the retry is not refused again
   */
  Route route(Instant receivedAt, boolean strict);

  /** Reads the members again, after Solr refused a write as unroutable. */
  void refresh();

  /** Whether writes may go to several collections (a time-routed alias). */
  boolean timeRouted();

  /** One collection or core: every request goes to it. */
  static HistoryCollections single(String name) {
    return new Single(name);
  }

  /**
   * Where a write goes.
   *
   * @param collection the alias, or a member collection by name
   * @param direct whether {@code collection} is a member that must take the write as it is, not
   *     route it again by receipt time ({@link HistoryUpdates#DIRECT})
   */
  record Route(String collection, boolean direct) {}

  /** A single collection or core. */
  record Single(String name) implements HistoryCollections {

    @Override
    public List<String> members() {
      return List.of(name);
    }

    @Override
    public Route route(Instant receivedAt, boolean strict) {
      return new Route(name, false);
    }

    @Override
    public void refresh() {}

    @Override
    public boolean timeRouted() {
      return false;
    }
  }
}
