package io.github.avgateway.core.contract;

import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.testing.TcpProxy;

/**
 * What the indexer-kill contract ({@link AbstractIndexerKillFaultContractTests}) needs from one
 * front-end's fault rig: a history backlog on its broker that nothing indexes, indexer-only
 * processes ({@code avgateway.mode=indexer}) it can start and kill, the depth of the history queue
 * as its broker counts it, the proxy to Solr, and what Solr holds.
 */
public interface IndexerKillDriver {

  /**
   * A history queue's messages: ready for a consumer, delivered to one and not acknowledged, and
   * acknowledged since the broker started (-1 where the broker does not count them).
   */
  record HistoryDepth(long ready, long held, long acknowledged) {
    public long total() {
      return ready + held;
    }
  }

  /**
   * Sends {@code requests} of a run's mixed load to a gateway whose history nobody indexes (its
   * history buffer puts at most 16 documents in a message), and waits until every request is
   * answered and its document is in a message on the history queue. Nothing else consumes the
   * history queue until {@link #endBacklog()}.
   */
  FaultDriver.Run backlog(String scenario, int requests) throws Exception;

  /** The history queue now, as the broker counts it. */
  HistoryDepth historyDepth() throws Exception;

  /**
   * Whether {@code depth}, seen with one indexer running, shows it holding a poll: history messages
   * delivered to it and not acknowledged (JMS: a whole poll of the indexer's batch size).
   */
  boolean holdsAPoll(HistoryDepth depth);

  /** The proxy between the indexers and Solr. */
  TcpProxy solrProxy();

  /** Starts an indexer-only process on the rig's broker and Solr; waits until it consumes. */
  JavaProcess startIndexer(String name) throws Exception;

  /** How many history documents of {@code run} Solr holds now (read directly, not proxied). */
  long indexed(FaultDriver.Run run) throws Exception;

  /** Ends what {@link #backlog} set up (stops its gateway, or starts the indexer it stopped). */
  void endBacklog() throws Exception;
}
