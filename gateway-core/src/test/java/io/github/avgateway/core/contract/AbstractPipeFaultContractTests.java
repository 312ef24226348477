package io.github.avgateway.core.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.model.MessageInfo;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The pipe-fault contract (docs/reliability.md, "Clean-pipe mode"; docs/architecture.md, "Tests and
 * the fault model"): faults under a mixed load of files on a clean-pipe's inbox, every front-end
 * extending this class with a {@link PipeFaultDriver}. clamd stopped holds the files (none rejected
 * for it); the pipe gateway killed with a batch open and restarted, and the broker killed and
 * restarted on its own data, lose no file and forward none twice except what a redelivery explains.
 * Every run ends with the {@code FaultLedger}'s checks and the pipe's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class AbstractPipeFaultContractTests {

  /** The driver of the front-end under test; called in every case, after the subclass's set-up. */
  protected abstract PipeFaultDriver pipeDriver();

  @Test
  @Order(1)
  public void clamdStoppedUnderPipeLoadHoldsFilesAndRejectsNone() throws Exception {
    PipeFaultDriver driver = pipeDriver();
    FaultDriver.Run run = driver.run("pipe-clamd-stop");
    run.mixed(200);
    run.awaitAnswered(40);
    long pauses = driver.intakePauses();
    long held;
    long rejected;
    driver.clamd().stop();
    try {
      await("the pipe gateway's intake paused")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> driver.intakePauses() > pauses);
      run.mixed(50);
      run.awaitNoProgress(Duration.ofSeconds(2));
      held = run.ledger().unanswered();
      rejected = driver.rejected(run);
    } finally {
      driver.clamd().launch();
    }
    run.finish().assertHolds(driver.afterFailedBatch()).assertAsExpected();
    assertThat(held).as("files held while clamd was down").isPositive();
    assertThat(rejected).as("files rejected while clamd was down").isZero();
    assertThat(driver.rejected(run)).as("files rejected (clamd away must hold)").isZero();
  }

  @Test
  @Order(2)
  public void pipeGatewayKilledMidBatchAndRestarted() throws Exception {
    PipeFaultDriver driver = pipeDriver();
    FaultDriver.Run run = driver.run("pipe-gateway-kill-9");
    run.mixed(150);
    run.awaitAnswered(30);
    long held = driver.killGatewayMidBatch(run);
    run.mixed(50);
    driver.restartGateway();
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
    if (held >= 0) {
      System.out.printf(
          "FAULT %s: killed with %d inbox messages delivered, uncommitted%n",
          run.ledger().scenario(), held);
      assertThat(held).as("inbox messages in an open batch just before the kill").isPositive();
      assertThat(run.ledger().documents().stream().filter(MessageInfo::redelivered).count())
          .as("history documents marked redelivered (the files of the batch open at the kill)")
          .isGreaterThanOrEqualTo(held);
    }
  }

  @Test
  @Order(3)
  public void brokerKilledUnderPipeLoadAndRestartedOnItsOwnData() throws Exception {
    PipeFaultDriver driver = pipeDriver();
    FaultDriver.Run run = driver.run("pipe-broker-kill-9");
    run.mixed(200);
    run.awaitAnswered(40);
    driver.killAndRestartBroker();
    run.mixed(50);
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }
}
