package io.github.avgateway.amqp.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.fault.AmqpFaultRig.QueueDepth;
import io.github.avgateway.core.contract.AbstractIndexerKillFaultContractTests;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.contract.IndexerKillDriver;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 19's kill scenarios on AMQP (history through the broker): a gateway killed between
 * publishing a batch's history message and acknowledging its requests, and an indexer process
 * killed while it holds history messages and a Solr update is on its way (the shared {@link
 * AbstractIndexerKillFaultContractTests}). Each test starts its own processes on one rig and stops
 * them at its end.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AmqpHistoryKillFaultIT extends AbstractIndexerKillFaultContractTests {

  /** The requests of the killed gateway's one batch: its batch size. */
  private static final int BATCH = 16;

  /**
   * How late the node's bytes (deliveries, publisher confirms) reach the killed gateway: the window
   * the kill must fall in, twenty times the test's look at the history queue (every 50 ms, a look
   * taking tens of milliseconds); every chunk from the node costs this much, so it is what the
   * scenario's length is made of.
   */
  private static final Duration CONFIRM_DELAY = Duration.ofSeconds(2);

  /**
   * The killed gateway's batch wait: more than two chunks of {@link #CONFIRM_DELAY}, so a batch
   * whose deliveries the proxy hands over in two chunks still collects all {@link #BATCH} requests.
   */
  private static final Duration BATCH_WAIT = CONFIRM_DELAY.multipliedBy(3);

  private AmqpFaultRig rig;

  @BeforeAll
  void start() throws Exception {
    rig = new AmqpFaultRig("history-kill");
  }

  @AfterAll
  void stop() throws Exception {
    if (rig != null) {
      rig.close();
    }
  }

  /**
   * A gateway {@code kill -9}'d after the broker holds its batch's history message and before it
   * acknowledged the batch's requests: they are redelivered, answered again, and each request ends
   * with exactly one history document, the redelivery's (marked {@code redelivered}).
   *
   * <p>Why the kill provably falls between the history publish and the ack: a batch's phases are
   * (ScanBatchListener, HistoryHandOff) scan, publish the replies, wait for their confirms, publish
   * one history message, wait for its confirm, and only then {@code basic.ack}. The gateway (one
   * consumer, its indexer off) reaches the node through a proxy that forwards everything from the
   * node {@link #CONFIRM_DELAY} late and everything to it at once; so the history message is on the
   * queue at once, and its confirm reaches the gateway no earlier than {@code CONFIRM_DELAY} after
   * the node received the message. One batch goes through before the delay is switched on (its
   * history message stays on the queue: no indexer runs). The test then watches the history queue
   * on its own connection (not through the proxy): the kill happens less than {@code CONFIRM_DELAY}
   * after the last look that found only the first batch's message (asserted), hence before the
   * second one's confirm could have arrived, hence before any of its requests was acknowledged.
   * Asserted as well: every reply had arrived by then (replies are confirmed before the history
   * message is published), and after the kill all {@link #BATCH} requests of the second batch are
   * back on the request queue (none was acknowledged). The batch wait ({@link #BATCH_WAIT}, more
   * than two chunks of latency) makes the batch collect all {@link #BATCH} requests even when the
   * proxy hands their deliveries over in two chunks.
   */
  @Test
  @Order(1)
  void gatewayKilledBetweenHistoryPublishAndAckRedeliveryGivesOneDocument() throws Exception {
    JavaProcess gateway =
        rig.startGateway(
            "gw-history-kill",
            "--avgateway.history.indexer.enabled=false",
            "--avgateway.amqp.consumers=1",
            "--avgateway.amqp.batch-size=" + BATCH,
            "--avgateway.amqp.batch-wait=" + BATCH_WAIT.toMillis() + "ms",
            // Late bytes from the node must look neither like a dead node nor like a lost confirm.
            "--spring.rabbitmq.requested-heartbeat=60s",
            "--avgateway.amqp.confirm-timeout=60s",
            "--avgateway.amqp.history-timeout=60s");
    try {
      killBetweenHistoryAndAck(gateway);
    } finally {
      gateway.stop();
    }
  }

  private void killBetweenHistoryAndAck(JavaProcess gateway) throws Exception {
    int queued = queuedDocuments();
    // A batch before the fault, so that every connection and channel the gateway publishes on is
    // open: one opened while the proxy delays the node's bytes would time out in its handshake.
    FaultRun run = new FaultRun(rig, "gateway-kill-9-history-published").load(BATCH);
    run.awaitAnswered(BATCH);
    awaitQueuedDocuments(queued + BATCH);
    AtomicLong lastLookWithout = new AtomicLong(System.nanoTime());
    long killed;
    long answeredAtKill;
    rig.rabbitProxy.latencyFromTarget(CONFIRM_DELAY);
    try {
      run.load(BATCH);
      await("the second batch's history message on " + AmqpFaultRig.HISTORY)
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> {
            long look = System.nanoTime();
            int documents = queuedDocuments();
            if (documents == queued + BATCH) {
              lastLookWithout.set(look);
            }
            return documents == queued + 2 * BATCH;
          });
      answeredAtKill = run.ledger.answered();
      gateway.kill9();
      killed = System.nanoTime();
    } finally {
      rig.rabbitProxy.latency(Duration.ZERO);
    }
    Duration window = Duration.ofNanos(killed - lastLookWithout.get());
    assertThat(window)
        .as("from the last look without the history message to the gateway's death")
        .isLessThan(CONFIRM_DELAY);
    assertThat(answeredAtKill).as("replies arrived before the kill").isEqualTo(2 * BATCH);
    await("the batch's requests back on " + AmqpFaultRig.REQUESTS)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() ->
            rig.client.admin().getQueueInfo(AmqpFaultRig.REQUESTS).getMessageCount() == BATCH);

    JavaProcess restarted = rig.startGateway("gw-history-kill-restarted");
    try {
      run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
      List<MessageInfo> docs = rig.historyDocuments(run.prefix);
      long redelivered = docs.stream().filter(MessageInfo::redelivered).count();
      System.out.printf(
          Locale.ROOT,
          "FAULT amqp/gateway-kill-9-history-published: killed %d ms after the history message"
              + " appeared at the latest; %d requests requeued, %d documents (one batch before the"
              + " fault), %d marked redelivered%n",
          window.toMillis(),
          BATCH,
          docs.size(),
          redelivered);
      assertThat(docs).as("history documents").hasSize(2 * BATCH);
      assertThat(redelivered).as("documents marked redelivered").isEqualTo(BATCH);
    } finally {
      restarted.stop();
    }
  }

  @Override
  protected IndexerKillDriver indexerDriver() {
    return new Driver();
  }

  /** The rig, a scanning gateway with its indexer off and indexer-only JVMs, for the contract. */
  private final class Driver implements IndexerKillDriver {

    private JavaProcess scanner;

    @Override
    public FaultDriver.Run backlog(String scenario, int requests) throws Exception {
      scanner =
          rig.startGateway(
              "gw-backlog",
              "--avgateway.history.indexer.enabled=false",
              // The buffer would put up to 256 documents in a message: at most 16 keeps the
              // backlog long enough for several of the indexer's polls.
              "--avgateway.history.buffer.max-documents=16");
      FaultRun run = new FaultRun(rig, scenario);
      int queued = queuedDocuments();
      run.load(requests).awaitAnswered(requests);
      awaitQueuedDocuments(queued + requests);
      return run;
    }

    @Override
    public HistoryDepth historyDepth() {
      QueueDepth depth = rig.historyDepth();
      return new HistoryDepth(depth.ready(), depth.unacked(), -1);
    }

    @Override
    public boolean holdsAPoll(HistoryDepth depth) {
      return depth.held() > 0;
    }

    @Override
    public TcpProxy solrProxy() {
      return rig.solrProxy;
    }

    @Override
    public JavaProcess startIndexer(String name) throws Exception {
      return rig.startIndexer(
          name,
          "--avgateway.history.indexer.batch-size=16",
          "--avgateway.solr.request-timeout=60s");
    }

    @Override
    public long indexed(FaultDriver.Run run) throws Exception {
      return rig.historyCount(((FaultRun) run).prefix);
    }

    @Override
    public void endBacklog() throws Exception {
      if (scanner != null) {
        scanner.stop();
      }
    }
  }

  /** History documents waiting on the history queue (no indexer may be consuming it). */
  private int queuedDocuments() {
    return rig.client.peekHistoryDocuments(AmqpFaultRig.HISTORY);
  }

  private void awaitQueuedDocuments(int documents) {
    await(documents + " history documents on " + AmqpFaultRig.HISTORY)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> queuedDocuments() == documents);
  }
}
