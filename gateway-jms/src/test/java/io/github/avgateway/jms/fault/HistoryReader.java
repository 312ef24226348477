package io.github.avgateway.jms.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.solr.HistoryDocs;
import java.time.Duration;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;

/**
 * Reads the history documents of one fault run straight from Solr (every key of a run starts with
 * the run's prefix, sent as correlation id) and hands them to the ledger; then waits (bounded)
 * until every confirmed request is answered and every answered one is visible in history.
 */
final class HistoryReader {

  private final SolrClient solr;
  private final String collection;

  HistoryReader(SolrClient solr, String collection) {
    this.solr = solr;
    this.collection = collection;
  }

  /** Feeds every document whose correlation id starts with {@code prefix} into {@code ledger}. */
  void collect(String prefix, FaultLedger ledger) {
    documents(prefix).forEach(ledger::history);
  }

  /** Every document whose correlation id starts with {@code prefix}. */
  List<MessageInfo> documents(String prefix) {
    try {
      return HistoryDocs.withCorrelationPrefix(solr, collection, prefix);
    } catch (Exception e) {
      throw new IllegalStateException("cannot read history from Solr", e);
    }
  }

  /**
   * Waits until nothing confirmed is unanswered and every answer has its history document (both
   * bounded by {@code timeout}), then returns the run's report, printed.
   */
  FaultReport finish(String prefix, FaultLedger ledger, Duration timeout) {
    try {
      await("every confirmed request of " + ledger.scenario() + " answered")
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(200))
          .until(() -> ledger.unanswered() == 0);
      // History is indexed from the broker after the answers: after a Solr outage the backlog
      // drains within the same bound as the answers.
      await("history of " + ledger.scenario())
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(500))
          .until(() -> {
            collect(prefix, ledger);
            return ledger.keysWithoutHistory().isEmpty();
          });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      System.out.println("FAULT " + ledger.scenario() + ": " + e.getMessage());
    }
    collect(prefix, ledger);
    return ledger.report().print();
  }
}
