package io.github.avgateway.core.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.testing.HttpProbe;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.convert.DurationStyle;

/**
 * The dependency-fault contract (docs/reliability.md, scenarios 7–12; docs/architecture.md, "Tests
 * and the fault model"): clamd and Solr fail under load behind a gateway on its real broker, and
 * every front-end extends this class with a {@link FaultDriver}. Every scenario ends with the
 * {@code FaultLedger}'s checks: nothing confirmed is lost, nothing EICAR-bearing is CLEAN, no
 * verdict contradicts another, one history document per request, and no repeated answer beyond what
 * the transport's redelivery explains ({@link FaultDriver#afterClamdFault()}).
 *
 * <ul>
 *   <li>A clamd fault (stopped, frozen by {@code SIGSTOP}) pauses intake; the requests in flight
 *       are answered once clamd is back, none dead-lettered, each as expected.
 *   <li>clamd's connections cut mid-stream and clamd reloading its signatures under load cost no
 *       request and no wrong answer.
 *   <li>A Solr fault does not touch the scan path (history travels through the broker): intake
 *       never pauses and readiness stays UP; the history indexer backs off (health DEGRADED, logged
 *       once) and drains the backlog once Solr is back. Solr stopped under a steady load (for
 *       {@code -Dfault.solr-outage}, 15 s unless set) leaves the scan rate as it was.
 * </ul>
 *
 * <p>One instance runs the scenarios in order; each starts with every dependency serving and leaves
 * it so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class AbstractDependencyFaultContractTests {

  /** The history indexer's log line when the store refuses (HistoryIndexer). */
  public static final String INDEXER_PAUSED = "history store refuses; indexing paused";

  /** The history indexer's log line when the store accepts again. */
  public static final String INDEXER_RESUMED = "history store accepts again; indexing resumed";

  private static final Duration LOG_WAIT = Duration.ofSeconds(60);

  /**
   * The driver of the front-end under test; called in every scenario, after the subclass's set-up.
   */
  protected abstract FaultDriver driver();

  @BeforeEach
  public final void everythingServes() {
    await("the gateway's intake open (clamd self-test passed)")
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> !driver().intakeDown());
  }

  @Test
  @Order(7)
  public void clamdStoppedAndStarted() throws Exception {
    FaultDriver driver = driver();
    clamdOutage("clamd-stop", driver.clamd()::stop, driver.clamd()::launch)
        .assertHolds(driver.afterClamdFault())
        .assertAsExpected();
  }

  @Test
  @Order(8)
  public void clamdFrozenBySigstopThenResumed() throws Exception {
    FaultDriver driver = driver();
    FaultReport report = clamdOutage("clamd-sigstop", driver.clamd()::freeze, driver.clamd()::thaw);
    report.assertHolds(driver.afterClamdFault());
    assertThat(report.deadLettered()).as("requests dead-lettered").isZero();
  }

  /**
   * Load; {@code fault}; more load, which makes the gateway notice, until it pauses its intake;
   * {@code cure}; the intake open again; every answer and its history.
   */
  private FaultReport clamdOutage(String scenario, Step fault, Step cure) throws Exception {
    FaultDriver driver = driver();
    FaultDriver.Run run = driver.run(scenario);
    run.mixed(300);
    run.awaitAnswered(40);
    long pauses = driver.intakePauses();
    fault.run();
    try {
      run.mixed(40);
      await(scenario + ": the gateway's intake paused")
          .atMost(LOG_WAIT)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> driver.intakePauses() > pauses);
    } finally {
      cure.run();
    }
    await(scenario + ": the gateway's intake open again")
        .atMost(LOG_WAIT)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> !driver.intakeDown());
    return run.finish();
  }

  @Test
  @Order(9)
  public void clamdConnectionsCutMidStream() throws Exception {
    FaultDriver driver = driver();
    FaultDriver.Run run = driver.run("clamd-cut");
    run.mixed(300);
    for (long answered : new long[] {40, 120, 200}) {
      run.awaitAnswered(answered);
      driver.clamdProxy().cutAll();
    }
    run.finish().assertHolds(driver.afterClamdFault()).assertAsExpected();
  }

  @Test
  @Order(10)
  public void clamdReloadUnderLoad() {
    FaultDriver driver = driver();
    FaultDriver.Run run = driver.run("clamd-reload");
    run.mixed(300);
    for (long answered : new long[] {40, 150}) {
      run.awaitAnswered(answered);
      assertThat(driver.clamd().reload()).as("clamd's answer to RELOAD").isEqualTo("RELOADING");
    }
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }

  /** Requests per second of the steady load: well under what a fault rig's gateway answers. */
  private static final int STEADY_RATE = 40;

  private static final Duration BEFORE = Duration.ofSeconds(15);

  /**
   * How long Solr stays stopped: {@code -Dfault.solr-outage} (e.g. {@code 60s}, as the measured row
   * in docs/reliability.md), 15 s in the suite.
   */
  private static final Duration OUTAGE =
      DurationStyle.detectAndParse(System.getProperty("fault.solr-outage", "15s"));

  /**
   * The load after Solr is back: until the backlog is drained and at least {@link #AFTER_AT_LEAST}
   * passed, at most this long (a backlog still there then is waited for without load).
   */
  private static final Duration AFTER = Duration.ofSeconds(15);

  /** The shortest load after Solr is back, so that the rate after is one of whole seconds. */
  private static final Duration AFTER_AT_LEAST = Duration.ofSeconds(5);

  private static final Pattern INDEXER_DEGRADED =
      Pattern.compile("\"historyIndexer\"\\s*:\\s*\\{\\s*\"status\"\\s*:\\s*\"DEGRADED\"");

  /**
   * Solr stopped for {@link #OUTAGE} under a steady load of {@link #STEADY_RATE} requests a second:
   * scanning goes on at the rate before the outage (answers per second during it at least 90 % of
   * those in the 15 s before), every request sent during the outage is answered while Solr is still
   * down, readiness stays UP and intake never pauses, and health shows the indexer DEGRADED. Once
   * Solr is back the backlog drains while the load goes on, and every request has exactly one
   * document. Prints the rates before / during / after, the backlog's peak and the drain time.
   */
  @Test
  @Order(11)
  public void solrStoppedUnderSteadyLoadScanningGoesOnAtFullRate() throws Exception {
    FaultDriver driver = driver();
    FaultDriver.Run run = driver.run("solr-outage-" + OUTAGE.toSeconds() + "s");
    run.mixed(50);
    run.awaitAnswered(50);
    HttpProbe http = driver.http();
    long pauses = driver.intakePauses();
    long resumes = driver.logged(INDEXER_RESUMED);
    Steady before = steady(run, BEFORE, http, -1, 0, BEFORE);
    driver.stopSolr();
    Steady during;
    String health;
    long back;
    long restart;
    try {
      during = steady(run, OUTAGE, http, -1, 0, OUTAGE);
      int sent = run.sent();
      await("every request sent during the outage answered while Solr is still stopped")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> run.ledger().answered() >= sent);
      health = http.get("/actuator/health").body();
    } finally {
      restart = System.nanoTime();
      driver.restartSolr();
      back = System.nanoTime();
    }
    Steady after = steady(run, AFTER, http, back, before.peakBacklog(), AFTER_AT_LEAST);
    long drained =
        after.drainedAt() > 0 ? after.drainedAt() : awaitBacklogDrained(before.peakBacklog());
    System.out.printf(
        Locale.ROOT,
        "FAULT %s: answered %.1f/s before, %.1f/s during the %d s outage (%.0f %%),"
            + " %.1f/s after; history backlog peak %d messages (at most %d before the"
            + " outage), back to that %.1f s after Solr was back (its restart took %.1f s)%n",
        run.ledger().scenario(),
        before.rate(),
        during.rate(),
        OUTAGE.toSeconds(),
        100 * during.rate() / before.rate(),
        after.rate(),
        during.peakBacklog(),
        before.peakBacklog(),
        (drained - back) / 1e9,
        (back - restart) / 1e9);
    assertThat(health).as("/actuator/health during the outage").containsPattern(INDEXER_DEGRADED);
    assertThat(before.notReady() || during.notReady())
        .as("readiness not UP before or during the Solr outage")
        .isFalse();
    assertThat(before.intakeDown() || during.intakeDown())
        .as("intake paused before or during the Solr outage")
        .isFalse();
    assertThat(driver.intakePauses()).as("intake pauses").isEqualTo(pauses);
    assertThat(during.rate())
        .as("answers per second during the outage")
        .isGreaterThanOrEqualTo(0.9 * before.rate());
    assertThat(during.peakBacklog())
        .as("history backlog during the outage")
        .isGreaterThan(before.peakBacklog());
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
    awaitLogged(INDEXER_RESUMED, resumes);
  }

  /**
   * One window of the steady load.
   *
   * @param rate answers per second counted over the window (answers to earlier requests included,
   *     so a stall shows as a drop)
   * @param peakBacklog the most history messages waiting in the broker in the window
   * @param notReady whether /actuator/health/readiness (sampled each second) was ever not UP
   * @param intakeDown whether the intake was seen paused (sampled each second)
   * @param drainedAt when the backlog was first back to the depth asked for, or 0
   */
  private record Steady(
      double rate, long peakBacklog, boolean notReady, boolean intakeDown, long drainedAt) {}

  /**
   * Sends {@link #STEADY_RATE} requests a second for {@code length}, sampling the history backlog
   * every 100 ms; when {@code since} is not negative, notes the first sample at or below {@code
   * drainedDepth} and stops once it is there and {@code atLeast} has passed.
   */
  private Steady steady(
      FaultDriver.Run run,
      Duration length,
      HttpProbe http,
      long since,
      long drainedDepth,
      Duration atLeast)
      throws Exception {
    FaultDriver driver = driver();
    long start = System.nanoTime();
    long answeredAtStart = run.ledger().answered();
    long tick = Duration.ofMillis(100).toNanos();
    long peak = 0;
    long drainedAt = 0;
    boolean notReady = false;
    boolean intakeDown = false;
    int ticks = 0;
    long enough = start + atLeast.toNanos();
    for (long next = start; next < start + length.toNanos(); next += tick) {
      if (drainedAt > 0 && next >= enough) {
        break;
      }
      LockSupport.parkNanos(next - System.nanoTime());
      run.mixed(STEADY_RATE / 10);
      long depth = driver.historyBacklog();
      peak = Math.max(peak, depth);
      if (since >= 0 && drainedAt == 0 && depth <= drainedDepth) {
        drainedAt = System.nanoTime();
      }
      if (ticks++ % 10 == 0) {
        notReady |= http.get("/actuator/health/readiness").status() != 200;
        intakeDown |= driver.intakeDown();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Steady(
        (run.ledger().answered() - answeredAtStart) / seconds,
        peak,
        notReady,
        intakeDown,
        drainedAt);
  }

  /** Waits (bounded) until the history backlog is back to {@code depth}; returns when it was. */
  private long awaitBacklogDrained(long depth) {
    await("the history backlog drained")
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> driver().historyBacklog() <= depth);
    return System.nanoTime();
  }

  /**
   * Solr slower than the gateway's request timeout (3 s each way through the proxy; the rigs time
   * out at 4 or 5 s) under load: every request answered and intake never paused; the indexer backs
   * off (logged), and once Solr is fast again it resumes and every request has one document.
   */
  @Test
  @Order(12)
  public void solrSlowSlowsNoScan() throws Exception {
    FaultDriver driver = driver();
    FaultDriver.Run run = driver.run("solr-slow");
    run.mixed(150);
    run.awaitAnswered(20);
    long pauses = driver.intakePauses();
    long backoffs = driver.logged(INDEXER_PAUSED);
    long resumes = driver.logged(INDEXER_RESUMED);
    AtomicBoolean intakeDown = new AtomicBoolean();
    driver.solrProxy().latency(Duration.ofSeconds(3));
    try {
      run.mixed(150);
      await("every request answered while Solr is slow")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> {
            intakeDown.compareAndSet(false, driver.intakeDown());
            return run.ledger().answered() >= 300;
          });
      awaitLogged(INDEXER_PAUSED, backoffs);
    } finally {
      driver.solrProxy().latency(Duration.ZERO);
    }
    awaitLogged(INDEXER_RESUMED, resumes);
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
    assertThat(intakeDown).as("intake paused while Solr was slow").isFalse();
    assertThat(driver.intakePauses()).as("intake pauses while Solr was slow").isEqualTo(pauses);
  }

  private void awaitLogged(String text, long before) {
    await("'" + text + "' logged by the gateway")
        .atMost(LOG_WAIT)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> driver().logged(text) > before);
  }

  /** A step of a scenario that starts, stops, freezes or thaws a process. */
  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }
}
