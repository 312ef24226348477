package io.github.avgateway.solr;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.MessageInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.cloud.api.collections.TimeRoutedAlias;
import org.apache.solr.common.SolrDocument;

/**
 * A two-node SolrCloud (MiniSolrCloudCluster: Solr and ZooKeeper in this JVM, on 127.0.0.1) for
 * time-routed history stores, each opened by the store's own code, and what the tests read from it
 * directly: an alias' members, the ids each member holds.
 */
final class TimeRoutedCluster implements AutoCloseable {

  /** Today's start (UTC) when the tests began: the day collections are named after. */
  static final Instant TODAY = Instant.now().truncatedTo(ChronoUnit.DAYS);

  static final Duration VISIBLE = Duration.ofSeconds(30);

  private final MiniSolrCloudCluster cluster;
  private final List<AutoCloseable> opened = new ArrayList<>();

  TimeRoutedCluster(Path dir) throws Exception {
    cluster = new MiniSolrCloudCluster.Builder(2, dir).build();
  }

  static Instant day(int days) {
    return TODAY.plus(days, ChronoUnit.DAYS);
  }

  /** The name Solr gives the member of {@code alias} that starts at {@code start}. */
  static String member(String alias, Instant start) {
    return TimeRoutedAlias.formatCollectionNameFromInstant(alias, start);
  }

  /** ZooKeeper's address with the cluster's chroot, as {@code avgateway.solr.cloud.zk-hosts}. */
  String zkAddress() {
    return cluster.getZkServer().getZkAddress();
  }

  /** A new client of this cluster, with a request timeout that allows collection creation. */
  CloudHttp2SolrClient client() {
    return new CloudHttp2SolrClient.Builder(List.of(zkAddress()), Optional.empty())
        .withInternalClientBuilder(
            new Http2SolrClient.Builder().withRequestTimeout(120, TimeUnit.SECONDS))
        .build();
  }

  /** Opens (creating if missing) the alias {@code alias}: 1 shard x 1 replica per collection. */
  SolrHistoryStore open(String alias, TimeRouting routing, Instant firstStart) {
    SolrHistoryStore store =
        SolrHistoryStore.timeRouted(client(), alias, 1, 1, routing, firstStart);
    opened.add(store);
    return store;
  }

  /** A recorder on {@code store} with small batches, closed with the cluster. */
  SolrHistoryRecorder recorder(
      SolrHistoryStore store, RecorderSettings settings, HistoryBatchObserver observer) {
    SolrHistoryRecorder recorder =
        new SolrHistoryRecorder(
            store.client(),
            store.collections(),
            settings,
            new SolrHistoryGate(),
            observer,
            RollupSlots.DEFAULT);
    opened.add(recorder);
    return recorder;
  }

  SolrHistoryQueries queries(SolrHistoryStore store) {
    return new SolrHistoryQueries(
        store.client(),
        store.collections(),
        SolrHistoryQueries.DEFAULT_TIMEOUT,
        RollupSlots.DEFAULT);
  }

  /** The members of {@code alias} as the cluster state has them now. */
  List<String> members(String alias) throws Exception {
    return cluster.getSolrClient().getClusterStateProvider().resolveAlias(alias);
  }

  /** When the oldest member of {@code alias} starts. */
  Instant oldestStart(String alias) throws Exception {
    return members(alias).stream()
        .map(m -> TimeRoutedAlias.parseInstantFromCollectionName(alias, m))
        .min(Instant::compareTo)
        .orElseThrow();
  }

  Map<String, String> properties(String alias) {
    return cluster.getSolrClient().getClusterStateProvider().getAliasProperties(alias);
  }

  /** The ids of the history documents (not counts) that the collection {@code member} holds. */
  Set<String> idsIn(String member) throws Exception {
    SolrQuery query = new SolrQuery("*:*");
    query.addFilterQuery(DocumentSearch.DOCUMENTS_ONLY);
    query.setFields(HistoryFields.ID);
    query.setRows(100_000);
    Set<String> ids = new HashSet<>();
    for (SolrDocument doc : cluster.getSolrClient().query(member, query).getResults()) {
      ids.add((String) doc.getFirstValue(HistoryFields.ID));
    }
    return ids;
  }

  /**
   * How many documents of {@code kind} ({@link RollupSlots}: counts of a slot, a day's sum) the
   * collection {@code member} holds.
   */
  long countsIn(String member, String kind) throws Exception {
    SolrQuery query = new SolrQuery(HistoryFields.KIND + ":" + kind);
    query.setRows(0);
    return cluster.getSolrClient().query(member, query).getResults().getNumFound();
  }

  /** Waits until {@code member} holds exactly the documents {@code expected}. */
  void awaitIds(String member, Set<String> expected) {
    await(member + " holds " + expected)
        .atMost(VISIBLE)
        .ignoreExceptions()
        .until(() -> idsIn(member).equals(expected));
  }

  /** Records {@code docs} and waits until Solr accepted each. */
  static void recordAll(SolrHistoryRecorder recorder, List<MessageInfo> docs) throws Exception {
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    docs.forEach(doc -> futures.add(recorder.record(doc)));
    CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(180, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable closeable : opened.reversed()) {
      closeable.close();
    }
    cluster.shutdown();
  }
}
