package io.github.avgateway.load.harness;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.solr.HistoryDocs;
import io.github.avgateway.solr.SolrHistoryStore;
import io.github.avgateway.solr.TimeRouting;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The scale-out run's history: a time-routed alias (daily collections of 2 shards x 2 replicas,
 * kept 30 days: the gateway's defaults), created before the gateways start; reads its documents
 * into a ledger.
 */
final class ScaleHistory implements AutoCloseable {

  private static final String COLLECTION = "history";

  /** The alias' layout; the gateways get the same settings ({@link #gatewayArgs()}). */
  static final TimeRouting ROUTING =
      new TimeRouting(
          Duration.ofDays(1), Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofDays(30));

  private final CloudHttp2SolrClient client;

  ScaleHistory(String zkHost) {
    client = client(zkHost);
  }

  /**
   * Creates the history alias and today's collection (2 shards x 2 replicas, from the history
   * configset) through the store's own code, with a request timeout long enough for a loaded
   * machine: the gateways would create it on first start too, but within their per-request timeout
   * (10 s by default, 4 s in the fault run), which creating four replicas here can exceed.
   */
  static void createCollection(String zkHost) {
    SolrHistoryStore.timeRouted(client(zkHost), COLLECTION, 2, 2, ROUTING).close();
  }

  /** The gateways' properties for the alias: cloud mode, time-routed as {@link #ROUTING}. */
  static List<String> gatewayArgs() {
    return List.of(
        "--avgateway.solr.mode=cloud",
        "--avgateway.solr.cloud.shards=2",
        "--avgateway.solr.cloud.replicas=2",
        "--avgateway.solr.cloud.time-routed.enabled=true",
        "--avgateway.solr.cloud.time-routed.interval=" + ROUTING.interval(),
        "--avgateway.solr.cloud.time-routed.max-future=" + ROUTING.maxFuture(),
        "--avgateway.solr.cloud.time-routed.preemptive-create-window=" + ROUTING.preemptiveWindow(),
        "--avgateway.solr.retention.max-age=" + ROUTING.keep());
  }

  /**
   * The history documents (not the per-slot counts) in each collection of the alias, e.g. {@code
   * history__TRA__2026-11-27=812345}.
   */
  Map<String, Long> documentsPerCollection() throws Exception {
    Map<String, Long> counts = new TreeMap<>();
    for (String member : client.getClusterStateProvider().resolveAlias(COLLECTION)) {
      SolrQuery query = new SolrQuery("*:*");
      query.addFilterQuery("-kind:[* TO *]");
      query.setRows(0);
      counts.put(member, client.query(member, query).getResults().getNumFound());
    }
    return counts;
  }

  private static CloudHttp2SolrClient client(String zkHost) {
    return new CloudHttp2SolrClient.Builder(List.of(zkHost), Optional.of("/solr"))
        .withInternalClientBuilder(
            new Http2SolrClient.Builder().withRequestTimeout(120, TimeUnit.SECONDS))
        .withDefaultCollection(COLLECTION)
        .build();
  }

  /**
   * Reads the documents whose correlation id starts with {@code prefix} until every answered
   * request has one or {@code timeout} passed (the report then counts what is missing).
   */
  void collect(FaultLedger ledger, String prefix, Duration timeout) {
    try {
      await(ledger.scenario() + ": a history document for every answered request")
          .atMost(timeout)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(500))
          .until(() -> {
            read(ledger, prefix);
            return ledger.keysWithoutHistory().isEmpty();
          });
    } catch (ConditionTimeoutException e) {
      // the report counts what is missing
    }
  }

  private void read(FaultLedger ledger, String prefix) {
    try {
      HistoryDocs.withCorrelationPrefix(client, COLLECTION, prefix).forEach(ledger::history);
    } catch (Exception e) {
      // a node restarting: the next poll tries again
    }
  }

  @Override
  public void close() throws Exception {
    client.close();
  }
}
