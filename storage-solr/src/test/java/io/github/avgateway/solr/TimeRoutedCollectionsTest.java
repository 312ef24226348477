package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.solr.HistoryCollections.Route;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.client.solrj.impl.ClusterStateProvider;
import org.apache.solr.common.cloud.ClusterState;
import org.junit.jupiter.api.Test;

/** Where each write goes, from an alias' members and properties as the cluster state has them. */
class TimeRoutedCollectionsTest {

  private static final Instant NOW = Instant.parse("2026-03-04T12:00:00Z");
  private static final String MON = "h__TRA__2026-03-02";
  private static final String TUE = "h__TRA__2026-03-03";
  private static final String WED = "h__TRA__2026-03-04";

  private final Members cluster = new Members(List.of(MON, WED, TUE));
  private final TimeRoutedCollections collections =
      new TimeRoutedCollections("h", cluster, Clock.fixed(NOW, ZoneOffset.UTC));

  @Test
  void membersAreNewestFirst() {
    assertThat(collections.members()).containsExactly(WED, TUE, MON);
  }

  @Test
  void whatSolrAcceptsGoesThroughTheAliasAndTheRestToTheNearestMember() {
    assertThat(route("2026-03-03T05:00:00Z")).isEqualTo(new Route("h", false));
    assertThat(route("2026-03-02T00:00:00Z")).isEqualTo(new Route("h", false));
    // tomorrow within max-future (10 min): Solr creates its collection
    assertThat(route("2026-03-04T12:09:00Z")).isEqualTo(new Route("h", false));
    assertThat(route("2026-03-01T23:59:59Z")).isEqualTo(new Route(MON, true));
    assertThat(route("2001-01-01T00:00:00Z")).isEqualTo(new Route(MON, true));
    // beyond max-future less the clocks' margin (30 s): the member holding it, or the newest
    assertThat(route("2026-03-04T12:09:31Z")).isEqualTo(new Route(WED, true));
    assertThat(route("2026-03-09T00:00:00Z")).isEqualTo(new Route(WED, true));
  }

  @Test
  void strictlyOnlyWhatWasReceivedUpToNowGoesThroughTheAlias() {
    Members late = new Members(List.of(MON, TUE));
    TimeRoutedCollections lagging =
        new TimeRoutedCollections("h", late, Clock.fixed(NOW, ZoneOffset.UTC));
    // today's collection does not exist yet: Solr creates it
    assertThat(lagging.route(Instant.parse("2026-03-04T11:00:00Z"), true))
        .isEqualTo(new Route("h", false));
    assertThat(lagging.route(NOW, true)).isEqualTo(new Route("h", false));
    assertThat(lagging.route(NOW.plusSeconds(1), false)).isEqualTo(new Route("h", false));
    assertThat(lagging.route(NOW.plusSeconds(1), true)).isEqualTo(new Route(TUE, true));
    assertThat(lagging.route(Instant.parse("2026-03-01T00:00:00Z"), true))
        .isEqualTo(new Route(MON, true));
  }

  @Test
  void aNameThatIsNotATimeRoutedAliasIsAnError() {
    TimeRoutedCollections plain =
        new TimeRoutedCollections("plain", new Members(List.of("plain")), Clock.systemUTC());
    assertThatThrownBy(plain::members)
        .isInstanceOf(SolrHistoryException.class)
        .hasMessageContaining("not a time-routed alias");
  }

  private Route route(String instant) {
    return collections.route(Instant.parse(instant), false);
  }

  /** The cluster state of one alias: its members and a daily router with the defaults. */
  private record Members(List<String> names) implements ClusterStateProvider {

    @Override
    public List<String> resolveAlias(String alias) {
      return names;
    }

    @Override
    public Map<String, String> getAliasProperties(String alias) {
      return Map.of(
          "router.name", "time", "router.interval", "+1DAY", "router.maxFutureMs", "600000");
    }

    @Override
    public ClusterState.CollectionRef getState(String collection) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Set<String> getLiveNodes() {
      throw new UnsupportedOperationException();
    }

    @Override
    public ClusterState getClusterState() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, Object> getClusterProperties() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object getClusterProperty(String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String getPolicyNameByCollection(String collection) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void connect() {}

    @Override
    public String getQuorumHosts() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
  }
}
