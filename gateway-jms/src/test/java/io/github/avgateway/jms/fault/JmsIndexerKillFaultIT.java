package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.jms.history.JmsHistoryIndexer;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: an indexer-only process ({@code avgateway.mode=indexer}) {@code kill -9}'d while it
 * holds a poll of history messages it has not acknowledged; a new indexer process drains the rest.
 * No document is lost (the held messages go back to the queue) or doubled (the ones written before
 * the kill are overwritten by id).
 *
 * <p>The in-process gateway scans with its indexer stopped, so that {@value #REQUESTS} requests
 * leave a backlog of history messages on the external Artemis. The indexer process reaches Solr
 * through the rig's proxy with {@link #SOLR_LATENCY} on every chunk, so each of its polls ({@value
 * #POLL} history messages, up to 16 documents each) spends seconds in the Solr update while its
 * messages are delivered and unacknowledged. It is killed once it has acknowledged at least one
 * poll (Solr accepted its documents, which become visible although the indexer is dead) and the
 * broker counts a whole poll delivered to it and not acknowledged: received in milliseconds from
 * the broker, so the indexer is past receiving and in the Solr update or just before it. The
 * broker's acknowledged count after the kill shows that no commit slipped in between.
 */
class JmsIndexerKillFaultIT extends AbstractJmsFaultIT {

  /**
   * The scan load whose history is the backlog: at least 50 history messages (the rig's history
   * buffer puts at most 16 documents in one), over six polls of {@value #POLL}; one acknowledged
   * and one held at the kill, the rest left for the second indexer.
   */
  private static final int REQUESTS = 800;

  private static final int POLL = 8;
  private static final Duration SOLR_LATENCY = Duration.ofMillis(300);
  private static final Duration START = Duration.ofMinutes(2);
  private static final String CONSUMING = "history indexer consuming";
  private static final String HISTORY = ArtemisBrokerMain.HISTORY;

  @Test
  void indexerKilledHoldingAPollANewIndexerIndexesEveryDocumentOnce() throws Exception {
    try (BrokerQueues queues = new BrokerQueues(env.rig.artemisUrl());
        AutoCloseable embeddedIndexer = stoppedOnceCaughtUp(queues)) {
      FaultRun run = new FaultRun(env, "indexer-kill-9");
      run.mixed(REQUESTS);
      run.awaitAnswered(REQUESTS);
      long backlog = queues.messageCount(HISTORY);
      long acknowledgedBefore = queues.messagesAcknowledged(HISTORY);

      long held;
      long acknowledged;
      env.rig.solrProxy.latency(SOLR_LATENCY);
      try (JavaProcess first = startIndexer("indexer-1")) {
        await("the indexer indexed a poll and holds the whole next one")
            .atMost(START)
            .pollInterval(Duration.ofMillis(20))
            .until(() ->
                queues.messagesAcknowledged(HISTORY) > acknowledgedBefore
                    && queues.deliveringCount(HISTORY) == POLL);
        held = queues.deliveringCount(HISTORY);
        acknowledged = queues.messagesAcknowledged(HISTORY);
        first.kill9();
      } finally {
        env.rig.solrProxy.latency(Duration.ZERO);
      }
      assertThat(queues.messagesAcknowledged(HISTORY))
          .as("history messages acknowledged after the kill")
          .isEqualTo(acknowledged);
      assertThat(held).as("history messages the killed indexer held").isEqualTo(POLL);
      await("the broker takes the held messages back")
          .atMost(Duration.ofSeconds(30))
          .until(() -> queues.deliveringCount(HISTORY) == 0);
      await("the documents the killed indexer had written, visible")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> !run.documents().isEmpty());
      int indexedAtKill = run.documents().size();

      long drainStarted = System.nanoTime();
      try (JavaProcess second = startIndexer("indexer-2")) {
        await("the second indexer drains the history queue")
            .atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> queues.messageCount(HISTORY) == 0);
      }
      System.out.printf(
          Locale.ROOT,
          "FAULT jms/indexer-kill-9: backlog %d history messages; killed holding %d unacknowledged"
              + " (%d acknowledged before, %d documents of the run in Solr after the kill);"
              + " the second indexer drained the rest in %.1f s (start included)%n",
          backlog,
          held,
          acknowledged - acknowledgedBefore,
          indexedAtKill,
          (System.nanoTime() - drainStarted) / 1e9);
      run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
      assertThat(run.documents()).as("history documents of the run").hasSize(REQUESTS);
    }
  }

  /**
   * Stops the in-process gateway's indexer once it has drained the history queue, so that the
   * backlog the scenario builds is its own.
   */
  private AutoCloseable stoppedOnceCaughtUp(BrokerQueues queues) {
    await("the in-process indexer caught up")
        .atMost(START)
        .pollInterval(Duration.ofMillis(200))
        .until(() -> queues.messageCount(HISTORY) == 0);
    return env.stopped(env.bean(JmsHistoryIndexer.class));
  }

  private JavaProcess startIndexer(String name) throws Exception {
    JavaProcess indexer = env.rig.startGateway(name, env.rig.indexerArgs(name, POLL));
    try {
      indexer.awaitLog(CONSUMING, 1, START);
    } catch (RuntimeException e) {
      indexer.close();
      throw e;
    }
    return indexer;
  }
}
