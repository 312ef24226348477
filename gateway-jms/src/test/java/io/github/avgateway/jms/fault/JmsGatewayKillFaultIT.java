package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.JavaProcess;
import io.github.avgateway.core.testing.TcpProxy;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.jms.history.JmsHistoryIndexer;
import io.github.avgateway.jms.intake.JmsGateway;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Gateway JVMs {@code kill -9}'d: with its embedded Artemis mid-load and started again on the same
 * journal (issue 8, scenario 6), and on the external Artemis while a batch's commit is in flight
 * (issue 19). The caller collects every reply; nothing confirmed is lost, history holds one
 * document per request.
 */
class JmsGatewayKillFaultIT extends AbstractJmsFaultIT {

  private static final String READY = "av-gateway JMS ready";
  private static final Duration START = Duration.ofMinutes(2);

  /**
   * Added to every chunk from the slow gateway to Artemis. It is the time the test has, after the
   * gateway logged a commit, to hold what the gateway writes from then on in the proxy: a test
   * slower than that lets the commit land, and the gateway's next commit is the one held. Each
   * chunk the gateway writes costs this much, so it is what the scenario's length is made of.
   */
  private static final Duration TOWARD_BROKER = Duration.ofSeconds(1);

  /** How often the test reads the slow gateway's log for its "Committing" line. */
  private static final Duration LOG_POLL = Duration.ofMillis(200);

  /**
   * Once the proxy holds what the gateway writes, how long the gateway must have written nothing
   * before the kill: it then waits on its commit's answer, the commit written (unless the machine
   * stalls it that long between the line and the write). Before the hold and this wait, the timing
   * decided: a kill between the line and the commit's write, or a test slower than {@link
   * #TOWARD_BROKER}, missed the window, and the test failed now and then on a loaded machine.
   */
  private static final Duration QUIET = Duration.ofSeconds(2);

  /**
   * Bound (a wait by condition, not a sleep) for what follows a kill: the commit in flight applied,
   * the held requests taken back.
   */
  private static final Duration AFTER_KILL = Duration.ofSeconds(30);

  /**
   * The slow gateway's broker connection: seconds of latency toward the broker must not make it
   * take the broker for dead (pings every 30 s, a blocked call gives up after 30 s).
   */
  private static final String PATIENT =
      "clientFailureCheckPeriod=30000&connectionTTL=60000&callTimeout=30000";

  private static final int BATCH = 4;
  private static final String COMMITTING = "Committing a batch of";
  private static final Pattern COMMITTING_SIZE =
      Pattern.compile("Committing a batch of (\\d+) requests");

  @Test
  void gatewayWithEmbeddedArtemisKilledAndRestartedOnTheSameJournal() throws Exception {
    int port = TestEnv.freePort();
    Path data = env.rig.dir.resolve("embedded-artemis");
    List<String> args = new ArrayList<>(env.rig.gatewayArgs("embedded-jvm", 4));
    args.add("--avgateway.jms.mode=embedded");
    args.add("--avgateway.jms.url=tcp://127.0.0.1:" + port);
    args.add("--avgateway.jms.embedded.data-dir=" + data);
    args.add("--avgateway.jms.embedded.auto-create-queues=true");
    args.add("--avgateway.jms.request-queue=" + ArtemisBrokerMain.REQUESTS);
    args.add("--avgateway.jms.dead-letter-queue=" + ArtemisBrokerMain.DEAD_LETTERS);
    try (JavaProcess gateway = env.rig.startGateway("embedded-gateway", args)) {
      gateway.awaitLog(READY, 1, Duration.ofMinutes(2));
      try (FaultClient client =
          new FaultClient("tcp://127.0.0.1:" + port, ArtemisBrokerMain.REPLIES)) {
        FaultRun run = new FaultRun(env, client, "gateway-embedded-kill-9");
        run.mixed(200);
        run.awaitAnswered(30);
        gateway.kill9();
        gateway.launch();
        gateway.awaitLog(READY, 2, Duration.ofMinutes(2));
        run.mixed(50);
        run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
      }
    }
  }

  /**
   * Issue 19: gateway {@code kill -9} between handing the history to the broker and the
   * acknowledgement. On JMS a batch's history documents go to the history buffer, which commits the
   * message holding them on a session of its own; only then does the batch send its commit, which
   * acknowledges the requests along with its replies (Artemis' client sends in a transaction
   * without waiting, so the replies and the commit leave the gateway together, and the broker
   * applies them only when the commit arrives). The window is the commit's flight, the history
   * already durable.
   *
   * <p>The gateway (one consumer, batches of {@value #BATCH}, its history indexer off, the one in
   * the test JVM stopped, so that the history queue changes only with its commits) reaches Artemis
   * through a {@link TcpProxy} that delays every chunk toward the broker by {@link #TOWARD_BROKER}.
   * It logs "Committing a batch of N requests" after the batch's history message was committed and
   * immediately before the batch's commit. Once the test reads that line (every {@link #LOG_POLL})
   * the proxy holds whatever the gateway writes from then on, the chunk still being delayed
   * included; the test waits until the gateway has written nothing for {@link #QUIET} (it waits on
   * the commit's answer, which the held commit cannot get), then kills it and lets the held bytes
   * go. Timing only decides which commit is held, never whether one is: a commit written late after
   * its line is held all the same, and one that landed before the hold (a slow test) is followed by
   * the next batch's, held instead. That the kill fell inside the window is checked afterwards: at
   * the kill the proxy held bytes and the broker still counted the batch's requests as delivered,
   * and only <em>after</em> the kill, while no gateway runs, do exactly N replies reach the caller
   * (the history queue, which held the batch's history message before the kill, gains nothing); so
   * the commit was written before the kill and applied after it (bytes already on their way are
   * delivered, as on a real network). The gateway is started again and killed a second time in the
   * middle of a batch (requests delivered, no commit logged): nothing of that transaction becomes
   * visible, and those requests are redelivered. Restarted with its indexer on, it answers the rest
   * and indexes the history: nothing lost, no reply twice, one document per request, the
   * redelivered ones marked so.
   */
  @Test
  void gatewayKilledWhileItsCommitIsInFlightThenMidBatch() throws Exception {
    try (AutoCloseable inTestJvm =
            env.stopped(env.bean(JmsGateway.class), env.bean(JmsHistoryIndexer.class));
        TcpProxy toBroker = TcpProxy.to(env.rig.artemisPort);
        BrokerQueues queues = new BrokerQueues(env.rig.artemisUrl())) {
      FaultRun run = new FaultRun(env, "gateway-kill-9-commit-in-flight");
      long held;
      try (JavaProcess gateway =
          env.rig.startGateway("slow-gateway", slowGatewayArgs(toBroker, false))) {
        startSlow(gateway, toBroker, 1);
        run.mixed(40);
        killWhileACommitIsInFlight(gateway, run, queues, toBroker);
        startSlow(gateway, toBroker, 2);
        held = killMidBatch(gateway, run, queues);
      }
      toBroker.latencyToTarget(Duration.ZERO);
      try (JavaProcess restarted =
          env.rig.startGateway("slow-gateway-restarted", slowGatewayArgs(toBroker, true))) {
        restarted.awaitLog(READY, 1, START);
        run.mixed(20);
        FaultReport report =
            run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
        assertThat(report.duplicates())
            .as("replies answered twice (the rolled-back replies were never delivered)")
            .isZero();
        assertThat(run.redelivered())
            .as("history documents marked redelivered (requests held at the mid-batch kill)")
            .isGreaterThanOrEqualTo(held);
      }
    }
  }

  /** Starts (or, after a kill, launches again) the slow gateway; the latency goes on once ready. */
  private static void startSlow(JavaProcess gateway, TcpProxy toBroker, int starts)
      throws IOException {
    toBroker.releaseToTarget();
    toBroker.latencyToTarget(Duration.ZERO);
    if (starts > 1) {
      gateway.launch();
    }
    gateway.awaitLog(READY, starts, START);
    toBroker.latencyToTarget(TOWARD_BROKER);
  }

  /**
   * Kills the gateway while a commit it wrote is held in {@code toBroker}; checks that the commit
   * landed after the kill, when the proxy let it go.
   */
  private static void killWhileACommitIsInFlight(
      JavaProcess gateway, FaultRun run, BrokerQueues queues, TcpProxy toBroker) throws Exception {
    long committing = gateway.occurrences(COMMITTING);
    await("the slow gateway logs its next commit")
        .atMost(START)
        .pollInterval(LOG_POLL)
        .failFast("the slow gateway exited (see " + gateway.log() + ")", () -> !gateway.alive())
        .until(() -> gateway.occurrences(COMMITTING) > committing);
    toBroker.holdToTarget();
    await("the slow gateway waits on its commit: nothing written for " + QUIET)
        .atMost(AFTER_KILL)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> toBroker.sinceLastReadToTarget().compareTo(QUIET) >= 0);
    long held = toBroker.inFlightToTarget();
    long answered = run.ledger.answered();
    long history = queues.messageCount(ArtemisBrokerMain.HISTORY);
    long delivering = queues.deliveringCount(ArtemisBrokerMain.REQUESTS);
    gateway.kill9();
    int batch = lastCommittedBatch(gateway.log());
    assertThat(run.ledger.answered())
        .as("replies before the commit was let go")
        .isEqualTo(answered);
    // The held bytes go on, the dead gateway's close only once they are applied: a FIN right
    // behind them raced their processing in the broker (its connection-failure cleanup ran on
    // another thread and could drop the session before the commit, queued on the session's
    // executor, ran), as when the gateway's host dies and no FIN comes.
    toBroker.releaseBytesToTarget();
    await("the batch's commit, written before the kill, applied by the broker after it")
        .atMost(AFTER_KILL)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> run.ledger.answered() == answered + batch);
    assertThat(queues.messageCount(ArtemisBrokerMain.HISTORY))
        .as("history messages: the batch's was committed before its commit, none after the kill")
        .isEqualTo(history);
    toBroker.releaseToTarget();
    System.out.printf(
        "FAULT jms/gateway-kill-9-commit-in-flight: killed with a commit of %d requests in flight"
            + " (%d bytes held toward the broker, %d requests delivered, uncommitted, at the kill);"
            + " its %d replies arrived after the kill, its history message before its commit%n",
        batch, held, delivering, batch);
    assertThat(gateway.alive()).as("the gateway is dead").isFalse();
    assertThat(held).as("bytes the gateway wrote, held toward the broker at the kill").isPositive();
    assertThat(delivering).as("requests delivered and uncommitted at the kill").isGreaterThan(0);
  }

  /**
   * Kills the gateway in the middle of a batch: once a commit of this run was applied, as soon as
   * the broker has delivered it two requests of the next batch. Returns how many requests it held.
   */
  private static long killMidBatch(JavaProcess gateway, FaultRun run, BrokerQueues queues)
      throws Exception {
    long answered = run.ledger.answered();
    await("a batch of the restarted gateway committed")
        .atMost(START)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> run.ledger.answered() > answered);
    await("the next batch holds requests")
        .atMost(START)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> queues.deliveringCount(ArtemisBrokerMain.REQUESTS) >= 2);
    long held = queues.deliveringCount(ArtemisBrokerMain.REQUESTS);
    long committing = gateway.occurrences(COMMITTING);
    long answeredAtKill = run.ledger.answered();
    long history = queues.messageCount(ArtemisBrokerMain.HISTORY);
    gateway.kill9();
    assertThat(gateway.occurrences(COMMITTING))
        .as("commits started before the mid-batch kill")
        .isEqualTo(committing);
    await("the broker takes the held requests back")
        .atMost(AFTER_KILL)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> queues.deliveringCount(ArtemisBrokerMain.REQUESTS) == 0);
    assertThat(run.ledger.answered())
        .as("answers after the mid-batch kill")
        .isEqualTo(answeredAtKill);
    assertThat(queues.messageCount(ArtemisBrokerMain.HISTORY))
        .as("history messages after the mid-batch kill")
        .isEqualTo(history);
    System.out.printf(
        "FAULT jms/gateway-kill-9-commit-in-flight: killed mid-batch holding %d requests%n", held);
    return held;
  }

  /** The size of the last batch the gateway logged as committing. */
  private static int lastCommittedBatch(Path log) throws IOException {
    Matcher last = null;
    for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
      Matcher matcher = COMMITTING_SIZE.matcher(line);
      if (matcher.find()) {
        last = matcher;
      }
    }
    assertThat(last).as("a committing line in " + log).isNotNull();
    return Integer.parseInt(last.group(1));
  }

  /**
   * One consumer, batches of {@value #BATCH}, on the external Artemis through {@code toBroker}; its
   * own history indexer on or off; the batch's commit logged.
   */
  private List<String> slowGatewayArgs(TcpProxy toBroker, boolean indexer) {
    List<String> args = new ArrayList<>();
    for (String arg : env.rig.gatewayArgs("slow-jvm", 1)) {
      if (!arg.startsWith("--avgateway.jms.batch-size=")) {
        args.add(arg);
      }
    }
    args.add("--avgateway.jms.batch-size=" + BATCH);
    args.add("--avgateway.jms.mode=external");
    args.add("--avgateway.jms.url=tcp://127.0.0.1:" + toBroker.port() + "?" + PATIENT);
    args.add("--avgateway.history.indexer.enabled=" + indexer);
    args.add("--logging.level.io.github.avgateway.jms.intake.Batch=DEBUG");
    return args;
  }
}
