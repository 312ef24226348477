package io.github.avgateway.solr;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.impl.BaseHttpClusterStateProvider;
import org.apache.solr.client.solrj.impl.ClusterStateProvider;
import org.apache.solr.client.solrj.impl.ZkClientClusterStateProvider;
import org.apache.solr.client.solrj.request.CollectionAdminRequest.CreateTimeRoutedAlias;
import org.apache.solr.cloud.api.collections.TimeRoutedAlias;

/**
 * The history in a Solr time-routed alias. Searches and ordinary writes go through the alias, where
 * Solr routes each document by {@code receivedAt}, creating and dropping collections. A document
 * Solr would refuse goes straight to the nearest member collection ({@link #route}):
 *
 * <ul>
 *   <li>received before the oldest collection starts (after a long outage, or when the alias is
 *       young): to the oldest collection, which Solr drops first, as retention would have dropped
 *       the document;
 *   <li>received further ahead of the clock than the alias' {@code router.maxFutureMs} (less a
 *       margin for the clocks of gateway and Solr): to the collection holding its time, or else the
 *       newest.
 * </ul>
 *
 * Routed strictly (a retry after Solr refused a write), only what was received between the oldest
 * member's start and now goes through the alias: Solr routes that (creating the collection of a new
 * interval if needed) unless its clock lags this one by more than max-future.
 *
 * <p>The members and the alias' properties are read from the client's cluster state (kept current
 * by a ZooKeeper watch, or refreshed every few seconds over HTTP) at every use, and read again at
 * once by {@link #refresh()}.
 */
final class TimeRoutedCollections implements HistoryCollections {

  private static final Duration DEFAULT_MAX_FUTURE = Duration.ofMinutes(10);
  private static final Duration CLOCK_MARGIN = Duration.ofSeconds(30);

  private final String alias;
  private final ClusterStateProvider cluster;
  private final Clock clock;

  TimeRoutedCollections(String alias, ClusterStateProvider cluster, Clock clock) {
    this.alias = alias;
    this.cluster = cluster;
    this.clock = clock;
  }

  @Override
  public String name() {
    return alias;
  }

  /** One member collection and the receipt time it starts at. */
  record Member(String collection, Instant start) {}

  /** The member collections, newest first. */
  List<Member> parsedMembers() {
    List<String> names = cluster.resolveAlias(alias);
    List<Member> members = new ArrayList<>(names.size());
    for (String name : names) {
      try {
        members.add(new Member(name, TimeRoutedAlias.parseInstantFromCollectionName(alias, name)));
      } catch (DateTimeException | IndexOutOfBoundsException e) {
        throw new SolrHistoryException(
            "history alias " + alias + " is not a time-routed alias (member " + name + ")", e);
      }
    }
    members.sort(Comparator.comparing(Member::start).reversed());
    return members;
  }

  @Override
  public List<String> members() {
    return parsedMembers().stream().map(Member::collection).toList();
  }

  @Override
  public Route route(Instant receivedAt, boolean strict) {
    List<Member> members = parsedMembers();
    Member oldest = members.getLast();
    if (receivedAt.isBefore(oldest.start())) {
      return new Route(oldest.collection(), true);
    }
    Instant now = clock.instant();
    Instant latest = strict ? now : now.plus(ahead(cluster.getAliasProperties(alias)));
    if (receivedAt.isAfter(latest)) {
      return new Route(holding(members, receivedAt), true);
    }
    return new Route(alias, false);
  }

  /** The member whose interval holds {@code receivedAt}, or the newest when none does. */
  private static String holding(List<Member> members, Instant receivedAt) {
    for (Member member : members) {
      if (!receivedAt.isBefore(member.start())) {
        return member.collection();
      }
    }
    return members.getLast().collection();
  }

  /**
   * How far ahead of this clock Solr surely routes a receipt time: the alias' {@code
   * router.maxFutureMs} less a margin for the clocks of gateway and Solr.
   */
  private static Duration ahead(Map<String, String> properties) {
    String millis = properties.get(CreateTimeRoutedAlias.ROUTER_MAX_FUTURE);
    Duration maxFuture =
        millis == null ? DEFAULT_MAX_FUTURE : Duration.ofMillis(Long.parseLong(millis));
    Duration ahead = maxFuture.minus(CLOCK_MARGIN);
    return ahead.isNegative() ? Duration.ZERO : ahead;
  }

  @Override
  public void refresh() {
    try {
      if (cluster instanceof ZkClientClusterStateProvider zk) {
        zk.getZkStateReader().aliasesManager.update();
      } else if (cluster instanceof BaseHttpClusterStateProvider http) {
        http.resolveAlias(alias, true);
      }
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new SolrHistoryException(
          "reading the members of history alias " + alias + " failed: " + BatchWriter.describe(e),
          e);
    }
  }

  @Override
  public boolean timeRouted() {
    return true;
  }
}
