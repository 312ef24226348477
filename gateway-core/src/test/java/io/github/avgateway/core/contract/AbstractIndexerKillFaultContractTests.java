package io.github.avgateway.core.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.IndexerKillDriver.HistoryDepth;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The indexer-kill contract (docs/reliability.md, scenario 23; docs/architecture.md, "Tests and the
 * fault model"): an indexer process {@code kill -9}'d mid-drain, holding history messages
 * unacknowledged while a Solr update (slowed by a proxy) is on its way, part of the backlog already
 * indexed. The broker takes the held messages back; a second indexer drains the rest, the killed
 * one's messages included; no document is lost or doubled ({@code FaultLedger}, and exactly one
 * document per request in Solr). Every front-end extends this class with an {@link
 * IndexerKillDriver}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractIndexerKillFaultContractTests {

  /**
   * The scan load whose history is the backlog: at least 63 history messages (at most 16 documents
   * in one), several polls of either transport's indexer; one or more indexed before the kill, one
   * held at it, the rest left for the second indexer.
   */
  private static final int REQUESTS = 1_000;

  /** Added to every chunk to and from Solr while the first indexer drains. */
  private static final Duration SOLR_LATENCY = Duration.ofMillis(300);

  private static final Duration WAIT = Duration.ofMinutes(2);

  /** The driver of the front-end under test; called after the subclass's set-up. */
  protected abstract IndexerKillDriver indexerDriver();

  @Test
  public void indexerKilledHoldingAPollASecondIndexerIndexesEveryDocumentOnce() throws Exception {
    IndexerKillDriver driver = indexerDriver();
    FaultDriver.Run run = driver.backlog("indexer-kill-9", REQUESTS);
    try {
      // A broker may count its queues some seconds late (RabbitMQ's statistics interval).
      AtomicReference<HistoryDepth> seen = new AtomicReference<>();
      await("the backlog on the history queue: more than 50 history messages")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> {
            seen.set(driver.historyDepth());
            return seen.get().total() > 50;
          });
      HistoryDepth backlog = seen.get();
      AtomicReference<HistoryDepth> atKill = new AtomicReference<>();
      AtomicLong indexedAtKill = new AtomicLong();
      driver.solrProxy().latency(SOLR_LATENCY);
      try (JavaProcess first = driver.startIndexer("indexer-killed")) {
        await("the first indexer holding a poll, part of the backlog indexed and acknowledged")
            .atMost(WAIT)
            .pollInterval(Duration.ofMillis(20))
            .until(() -> {
              HistoryDepth depth = driver.historyDepth();
              long indexed = driver.indexed(run);
              atKill.set(depth);
              indexedAtKill.set(indexed);
              // Where the broker counts acknowledgements, a poll of the backlog acknowledged (its
              // documents can be visible in Solr before its acknowledgement reached the broker).
              boolean acknowledged =
                  depth.acknowledged() < 0 || depth.acknowledged() > backlog.acknowledged();
              return indexed > 0 && indexed < REQUESTS && acknowledged && driver.holdsAPoll(depth);
            });
        first.kill9();
      } finally {
        driver.solrProxy().latency(Duration.ZERO);
      }
      AtomicReference<HistoryDepth> afterKill = new AtomicReference<>();
      await("the broker takes the killed indexer's messages back")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> {
            afterKill.set(driver.historyDepth());
            return afterKill.get().held() == 0;
          });
      long drainStarted = System.nanoTime();
      try (JavaProcess second = driver.startIndexer("indexer-second")) {
        await("the backlog drained by the second indexer")
            .atMost(WAIT)
            .pollInterval(Duration.ofMillis(200))
            .until(() -> driver.historyDepth().total() == 0);
      }
      run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
      long documents = driver.indexed(run);
      System.out.printf(
          Locale.ROOT,
          "FAULT %s: backlog %d history messages for %d requests; killed holding %d unacknowledged"
              + " (%d ready), %d documents indexed by then; %d messages left after the kill; the"
              + " second indexer drained them in %.1f s (its start included); %d documents in the"
              + " end%n",
          run.ledger().scenario(),
          backlog.total(),
          REQUESTS,
          atKill.get().held(),
          atKill.get().ready(),
          indexedAtKill.get(),
          afterKill.get().ready(),
          (System.nanoTime() - drainStarted) / 1e9,
          documents);
      if (atKill.get().acknowledged() >= 0) {
        // No poll's acknowledgement slipped in between the last look and the kill.
        assertThat(afterKill.get().acknowledged())
            .as("history messages acknowledged after the kill")
            .isEqualTo(atKill.get().acknowledged());
      }
      assertThat(afterKill.get().ready()).as("messages left after the kill").isPositive();
      assertThat(documents).as("documents in Solr").isEqualTo(REQUESTS);
    } finally {
      driver.endBacklog();
    }
  }
}
