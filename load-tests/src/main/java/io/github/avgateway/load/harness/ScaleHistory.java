package io.github.avgateway.load.harness;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.solr.HistoryDocs;
import io.github.avgateway.solr.SolrHistoryStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.awaitility.core.ConditionTimeoutException;

/** Reads the scale-out run's history documents from the SolrCloud collection into a ledger. */
final class ScaleHistory implements AutoCloseable {

  private static final String COLLECTION = "history";
  private final CloudHttp2SolrClient client;

  ScaleHistory(String zkHost) {
    client = client(zkHost);
  }

  /**
   * Creates the history collection (2 shards x 2 replicas, from the history configset) through the
   * store's own code, with a request timeout long enough for a loaded machine: the gateways would
   * create it on first start too, but within their per-request timeout (10 s by default, 4 s in the
   * fault run), which creating four replicas here can exceed.
   */
  static void createCollection(String zkHost) {
    SolrHistoryStore.cloud(client(zkHost), COLLECTION, 2, 2).close();
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
