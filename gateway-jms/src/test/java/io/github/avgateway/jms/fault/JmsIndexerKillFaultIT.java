package io.github.avgateway.jms.fault;

import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.AbstractIndexerKillFaultContractTests;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.contract.IndexerKillDriver;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.testing.TcpProxy;
import io.github.avgateway.jms.history.JmsHistoryIndexer;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 19: an indexer-only process ({@code avgateway.mode=indexer}) {@code kill -9}'d while it
 * holds a poll of history messages it has not acknowledged; a new indexer process drains the rest.
 * No document is lost (the held messages go back to the queue) or doubled (the ones written before
 * the kill are overwritten by id).
 *
 * <p>The in-process gateway scans with its indexer stopped, so that the contract's requests leave a
 * backlog of history messages on the external Artemis. The indexer process reaches Solr through the
 * rig's proxy with {@link #SOLR_LATENCY} on every chunk, so each of its polls ({@value #POLL}
 * history messages, up to 16 documents each) spends seconds in the Solr update while its messages
 * are delivered and unacknowledged. It is killed once it has acknowledged at least one poll (Solr
 * accepted its documents, which become visible although the indexer is dead) and the broker counts
 * a whole poll delivered to it and not acknowledged: received in milliseconds from the broker, so
 * the indexer is past receiving and in the Solr update or just before it. The broker's acknowledged
 * count after the kill shows that no commit slipped in between. The scenario is the shared {@link
 * AbstractIndexerKillFaultContractTests}.
 */
@ExtendWith(AbstractJmsFaultIT.Environment.class)
class JmsIndexerKillFaultIT extends AbstractIndexerKillFaultContractTests {

  /** History messages per poll of the indexer processes. */
  private static final int POLL = 8;

  private static final Duration START = Duration.ofMinutes(2);
  private static final String CONSUMING = "history indexer consuming";
  private static final String HISTORY = ArtemisBrokerMain.HISTORY;

  private FaultEnvironment env;

  @BeforeAll
  void start(FaultEnvironment environment) {
    env = environment;
  }

  @BeforeEach
  void everythingServes() {
    env.awaitIntakeOpen();
  }

  @Override
  protected IndexerKillDriver indexerDriver() {
    return new Driver();
  }

  /** The environment's Artemis and in-process gateway, and indexer-only JVMs, for the contract. */
  private final class Driver implements IndexerKillDriver {

    private BrokerQueues queues;
    private AutoCloseable embeddedIndexer;

    /**
     * The in-process gateway scans with its indexer stopped (once it has drained the history queue,
     * so that the backlog is the run's own); the rig's history buffer puts at most 16 documents in
     * a message.
     */
    @Override
    public FaultDriver.Run backlog(String scenario, int requests) throws Exception {
      queues = new BrokerQueues(env.rig.artemisUrl());
      await("the in-process indexer caught up")
          .atMost(START)
          .pollInterval(Duration.ofMillis(200))
          .until(() -> queues.messageCount(HISTORY) == 0);
      embeddedIndexer = env.stopped(env.bean(JmsHistoryIndexer.class));
      FaultRun run = new FaultRun(env, scenario);
      run.mixed(requests);
      run.awaitAnswered(requests);
      return run;
    }

    @Override
    public HistoryDepth historyDepth() {
      long delivering = queues.deliveringCount(HISTORY);
      return new HistoryDepth(
          queues.messageCount(HISTORY) - delivering,
          delivering,
          queues.messagesAcknowledged(HISTORY));
    }

    /** Received in milliseconds: a whole poll held means the indexer is in its Solr update. */
    @Override
    public boolean holdsAPoll(HistoryDepth depth) {
      return depth.held() == POLL;
    }

    @Override
    public TcpProxy solrProxy() {
      return env.rig.solrProxy;
    }

    @Override
    public JavaProcess startIndexer(String name) throws Exception {
      JavaProcess indexer = env.rig.startGateway(name, env.rig.indexerArgs(name, POLL));
      try {
        indexer.awaitLog(CONSUMING, 1, START);
      } catch (RuntimeException e) {
        indexer.close();
        throw e;
      }
      return indexer;
    }

    @Override
    public long indexed(FaultDriver.Run run) {
      return ((FaultRun) run).documents().size();
    }

    @Override
    public void endBacklog() throws Exception {
      if (embeddedIndexer != null) {
        embeddedIndexer.close();
      }
      if (queues != null) {
        queues.close();
      }
    }
  }
}
