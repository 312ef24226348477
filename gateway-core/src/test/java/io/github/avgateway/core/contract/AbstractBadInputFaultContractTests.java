package io.github.avgateway.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.TestFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The bad-input contract (docs/reliability.md, scenarios 13–21; docs/architecture.md, "Tests and
 * the fault model"): hostile and broken requests amid ordinary load behind a gateway on its real
 * broker, with a real clamd, every front-end extending this class with a {@link BadInputDriver}.
 * Each gets its typed answer (UNSCANNABLE with its reason, or a dead-letter with its reason), the
 * ordinary requests around it are answered as usual, every request has one history document ({@code
 * FaultLedger}), and no file name or payload reaches a log. A transport's own kinds of bad input
 * (message types, headers only its protocol has) stay in its subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractBadInputFaultContractTests {

  /** Over the 1 MB {@code avgateway.clamd.max-size} both fault rigs set. */
  private static final int OVER_THE_LIMIT = 1_500_000;

  /** The driver of the front-end under test; called in every case, after the subclass's set-up. */
  protected abstract BadInputDriver badInputDriver();

  @Test
  public void oversizedZipBombAndEncryptedPayloadsGetTheirReasons() {
    FaultDriver.Run run = badInputDriver().run("hostile-payloads");
    for (int i = 0; i < 3; i++) {
      run.mixed(20);
      run.send(FaultPayloads.oversized(OVER_THE_LIMIT));
      run.send(FaultPayloads.zipBomb());
      run.send(FaultPayloads.encrypted());
    }
    run.mixed(20);
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  public void poisonRequestIsDeadLetteredAfterTheDeliveryLimitOthersUnaffected() throws Exception {
    BadInputDriver driver = badInputDriver();
    FaultDriver.Run run = driver.run("poison");
    run.mixed(30);
    driver.sendPoison(run);
    run.mixed(30);
    run.finish().assertHolds(driver.afterFailedBatch()).assertAsExpected();
  }

  @Test
  public void refusedReplyDestinationsAreDeadLetteredNotAnswered() throws Exception {
    BadInputDriver driver = badInputDriver();
    FaultDriver.Run run = driver.run("spoofed-reply-to");
    run.mixed(20);
    int refused =
        driver.sendRefusedReplyDestinations(
            run, "harmless, refused reply destination".getBytes(StandardCharsets.US_ASCII), null);
    run.mixed(20);
    assertThat(refused).as("requests with a refused reply destination").isPositive();
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  public void replyDestinationGoneBeforeTheReplyIsDeadLetteredAsUnroutable() throws Exception {
    BadInputDriver driver = badInputDriver();
    FaultDriver.Run run = driver.run("reply-destination-gone");
    run.mixed(20);
    int gone = driver.sendReplyDestinationsGone(run);
    run.mixed(20);
    assertThat(gone).as("requests whose reply destination is gone").isPositive();
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }

  /**
   * A file name and a payload text that must reach no log, the gateway's own loggers at DEBUG where
   * the driver can set them: in a clean file, in a zipped EICAR, in a message that is no file, and
   * in a request with a refused reply destination (whose name is logged, so it is not the canary).
   */
  @Test
  public void canaryFileNameAndPayloadNeverReachALog() throws Exception {
    BadInputDriver driver = badInputDriver();
    String canary = UUID.randomUUID().toString();
    String name = "canary-name-" + canary + ".txt";
    String text = "CANARY-PAYLOAD-" + canary;
    FaultDriver.Run run = driver.run("canary");
    try (AutoCloseable debug = driver.debugLogging()) {
      run.mixed(10);
      byte[] body = (text + " secret contents\n").getBytes(StandardCharsets.US_ASCII);
      run.send(new Payload(body, name, Expected.clean()));
      run.send(new Payload(FaultPayloads.eicarZip(7), name, Expected.infected()));
      driver.sendMalformed(run, text);
      driver.sendRefusedReplyDestinations(run, body, name);
      run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
    }
    List<String> leaks = new ArrayList<>();
    for (Path log : driver.logs()) {
      leaks.addAll(TestFiles.linesContaining(log, List.of(name, text)));
    }
    assertThat(driver.logs())
        .as("logs searched")
        .isNotEmpty()
        .allSatisfy(log -> assertThat(log).exists());
    assertThat(leaks).as("log lines with the canary").isEmpty();
    System.out.println(
        "FAULT "
            + run.ledger().scenario()
            + ": 0 lines with the canary in "
            + driver.logs().size()
            + " logs");
  }
}
