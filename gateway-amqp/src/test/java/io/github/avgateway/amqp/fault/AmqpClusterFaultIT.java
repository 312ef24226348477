package io.github.avgateway.amqp.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.amqp.testing.RabbitIt;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.fault.RabbitCluster;
import io.github.avgateway.core.fault.RabbitQueues.Quorum;
import io.github.avgateway.core.fault.RateRecovery;
import io.github.avgateway.core.pipe.Pipe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 38: the AMQP gateway on a private 3-node RabbitMQ cluster ({@link RabbitCluster}), two
 * gateway JVMs consuming (gateway a given node 1's address first, gateway b node 2's; the callers
 * node 1's), every queue a quorum queue with three members, under a steady mixed load: the node
 * that leads the request queue killed, a gateway's node killed, a rolling restart of all three
 * nodes, a memory alarm on one node, and a node killed while a clean-pipe inbox drains. Each run
 * must lose nothing confirmed, answer nothing EICAR-bearing CLEAN, keep one history document per
 * request (repeats only where a redelivery, marked in history, explains them) and get back to 90 %
 * of its answer rate (bounded); how long that took is printed per event. Behind the {@code cluster}
 * tag (docs/reliability.md, "Clusters").
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AmqpClusterFaultIT {

  private static final Pipe PIPE =
      new Pipe("cluster.inbox", "cluster.clean", "cluster.quarantine", "cluster.rejected");
  private static final List<String> QUEUES =
      List.of(
          AmqpFaultRig.REQUESTS,
          AmqpFaultRig.DEAD_LETTERS,
          AmqpFaultRig.HISTORY,
          "av.history.dead-letters",
          FaultClient.REPLY_QUEUE,
          PIPE.inbox(),
          PIPE.clean(),
          PIPE.quarantine(),
          PIPE.rejected());
  private static final String GW_A = "gw-a";
  private static final String GW_B = "gw-b";
  private static final String CALLERS = "callers";
  private static final int BACKLOG = Integer.getInteger("fault.cluster.backlog", 4000);

  private AmqpFaultRig rig;
  private RabbitCluster cluster;
  private final Map<String, JavaProcess> gateways = new LinkedHashMap<>();
  private PipeTraffic traffic;

  @BeforeAll
  void start() throws Exception {
    rig = new AmqpFaultRig("cluster", true);
    cluster = rig.cluster;
    gateways.put(GW_A, rig.startGateway("gw-cluster-a", gatewayArgs(1)));
    gateways.put(GW_B, rig.startGateway("gw-cluster-b", gatewayArgs(2)));
    traffic = new PipeTraffic(RabbitIt.connectionFactory(cluster.addresses(1)), PIPE, rig.client);
  }

  private String[] gatewayArgs(int firstNode) {
    return new String[] {
      "--spring.rabbitmq.addresses=" + cluster.addresses(firstNode),
      "--avgateway.amqp.pipes[0].inbox=" + PIPE.inbox(),
      "--avgateway.amqp.pipes[0].clean=" + PIPE.clean(),
      "--avgateway.amqp.pipes[0].quarantine=" + PIPE.quarantine(),
      "--avgateway.amqp.pipes[0].rejected=" + PIPE.rejected()
    };
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable part : new AutoCloseable[] {traffic, rig}) {
      if (part != null) {
        part.close();
      }
    }
  }

  @Test
  @Order(1)
  void everyQueueIsAQuorumQueueOnAllThreeNodes() {
    Map<String, Quorum> queues = cluster.queues().all();
    for (String name : QUEUES) {
      assertThat(queues.get(name)).as(name).isNotNull();
      assertThat(queues.get(name).members()).as(name + " members").containsExactly(1, 2, 3);
      assertThat(queues.get(name).online()).as(name + " online").containsExactly(1, 2, 3);
    }
    assertThat(view().connections())
        .as("nodes each process is connected to")
        .containsEntry(GW_A, Set.of(1))
        .containsEntry(GW_B, Set.of(2));
  }

  @Test
  @Order(2)
  void theRequestQueuesLeaderKilled() throws Exception {
    ClusterView view = view();
    int node = view.quietNode() > 0 ? view.quietNode() : 3;
    cluster.queues().transferLeadership(AmqpFaultRig.REQUESTS, node);
    killUnderLoad("cluster-leader-kill-9", node);
  }

  @Test
  @Order(3)
  void aGatewaysNodeKilled() throws Exception {
    ClusterView view = view();
    int node = view.nodeOf(GW_B);
    if (cluster.queues().leader(AmqpFaultRig.REQUESTS) == node) {
      cluster.queues().transferLeadership(AmqpFaultRig.REQUESTS, otherThan(node, view));
    }
    killUnderLoad("cluster-gateway-node-kill-9", node);
  }

  private void killUnderLoad(String scenario, int node) throws Exception {
    ClusterRun run = new ClusterRun(rig, scenario).awaitSteady();
    run.timeline.event("kill -9 of " + view().describe(node));
    cluster.kill9(node);
    try {
      run.timeline.awaitRecovered();
      run.timeline.event("node " + node + " started again");
    } finally {
      restore(node);
    }
    run.timeline.awaitRecovered();
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  @Test
  @Order(4)
  void rollingRestartOfAllThreeNodes() throws Exception {
    ClusterRun run = new ClusterRun(rig, "cluster-rolling-restart").awaitSteady();
    for (int node = 1; node <= RabbitCluster.SIZE; node++) {
      run.timeline.event("node " + node + " stopped (rolling restart): " + view().describe(node));
      cluster.stop(node);
      cluster.launch(node);
      run.timeline.event("node " + node + " started again");
      cluster.queues().awaitAllOnline(AmqpFaultRig.START, QUEUES.toArray(String[]::new));
      run.timeline.awaitRecovered();
    }
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  @Test
  @Order(5)
  void memoryAlarmOnOneNode() throws Exception {
    ClusterRun run = new ClusterRun(rig, "cluster-memory-alarm").awaitSteady();
    int node = view().nodeOf(GW_A);
    run.timeline.event("memory alarm raised on " + view().describe(node));
    cluster.memoryAlarm(node, true);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> cluster.alarms(node).contains("memory"));
      holdUntilABatchIsRequeued();
    } finally {
      cluster.memoryAlarm(node, false);
    }
    run.timeline.event("memory alarm cleared on node " + node);
    run.timeline.awaitRecovered();
    run.finish(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  /** Keeps the alarm until a gateway gave up waiting for confirms and requeued, at most 20 s. */
  private void holdUntilABatchIsRequeued() {
    long before = requeued();
    try {
      await("a batch requeued for want of confirms")
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> requeued() > before);
    } catch (ConditionTimeoutException e) {
      // held 20 s: long enough for the blocked publishes to matter
    }
  }

  private long requeued() {
    try {
      long count = 0;
      for (JavaProcess gateway : gateways.values()) {
        count += gateway.occurrences("requests requeued");
      }
      return count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  @Order(6)
  void aNodeKilledWhileAPipeInboxDrains() throws Exception {
    FaultLedger ledger = rig.ledger("cluster-pipe-drain-kill-9");
    String prefix = rig.run("cluster-pipe-drain-kill-9");
    traffic.use(ledger);
    int node = view().nodeOf(GW_B);
    cluster.queues().transferLeadership(PIPE.inbox(), node);
    String what = "kill -9 of " + view().describe(node) + " with the inbox draining";
    for (int i = 0; i < BACKLOG; i++) {
      traffic.send(prefix + i, FaultPayloads.mixed(prefix, i, 10));
    }
    await("40 % of the backlog forwarded")
        .atMost(FaultRun.ANSWER_BOUND)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> ledger.answered() >= BACKLOG * 4L / 10);
    long kill = System.nanoTime();
    cluster.kill9(node);
    try {
      FaultClient.awaitAnswered(ledger, FaultRun.ANSWER_BOUND);
    } finally {
      restore(node);
    }
    long[] answers = ledger.answerTimes();
    long until = answers[(int) (answers.length * 0.9)];
    RateRecovery.measure(ledger, what, kill, Duration.ofSeconds(2), until).print();
    rig.collectHistory(ledger, prefix, FaultRun.HISTORY_BOUND);
    var report = ledger.report().print();
    traffic.assertPipeHolds(ledger.scenario(), ledger.keys(), rig.historyDocuments(prefix));
    report.assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  /** Starts {@code node} again and waits until every queue has all its members online. */
  private void restore(int node) {
    cluster.launch(node);
    cluster.queues().awaitAllOnline(AmqpFaultRig.START, QUEUES.toArray(String[]::new));
  }

  private ClusterView view() {
    Map<String, Long> processes = new LinkedHashMap<>();
    gateways.forEach((name, gateway) -> processes.put(name, gateway.pid()));
    processes.put(CALLERS, ProcessHandle.current().pid());
    return new ClusterView(cluster, processes);
  }

  /** A node other than {@code node}, the quiet one if there is one. */
  private static int otherThan(int node, ClusterView view) {
    int quiet = view.quietNode();
    return quiet > 0 && quiet != node ? quiet : node % RabbitCluster.SIZE + 1;
  }
}
