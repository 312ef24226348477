package io.github.avgateway.core.contract;

import static io.github.avgateway.core.contract.PipeDriver.Outlet.CLEAN;
import static io.github.avgateway.core.contract.PipeDriver.Outlet.DEAD_LETTER;
import static io.github.avgateway.core.contract.PipeDriver.Outlet.QUARANTINE;
import static io.github.avgateway.core.contract.PipeDriver.Outlet.REJECTED;
import static io.github.avgateway.core.contract.PipeDriver.Pipe.BROKEN;
import static io.github.avgateway.core.contract.PipeDriver.Pipe.UPLOADS;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.contract.PipeDriver.Outlet;
import io.github.avgateway.core.contract.PipeDriver.ReplyTo;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.core.wire.WireNames;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The clean-pipe contract (docs/architecture.md, "The flow"; the tests table under "Tests and the
 * fault model"): every front-end extends this class and runs it against its real broker, with a
 * real clamd and a real history store behind the gateway. A file put on a pipe's inbox comes out on
 * clean, quarantine or rejected by its verdict, unchanged apart from the gateway's properties, and
 * has one history document; a producer that asks for a reply gets one where the reply-destination
 * policy allows it, and a refused reply destination costs only the reply; a missing outlet
 * dead-letters the file as {@code FORWARD_UNROUTABLE} and the pipe goes on; a message that is not a
 * file is dead-lettered as {@code MALFORMED_REQUEST} and never forwarded. The subclass only
 * supplies a {@link PipeDriver}.
 *
 * <p>One instance runs all cases; {@link #createPipeDriver()} is called once, after the subclass's
 * fields are set (e.g. injected by a Spring test context).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractCleanPipeContractTests {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private PipeDriver driver;

  /** The driver for the front-end under test, with its gateway and both pipes running. */
  protected abstract PipeDriver createPipeDriver() throws Exception;

  @BeforeAll
  public final void openPipeDriver() throws Exception {
    driver = createPipeDriver();
  }

  @AfterAll
  public final void closePipeDriver() throws Exception {
    if (driver != null) {
      driver.close();
    }
  }

  @Test
  public void aCleanFileArrivesOnCleanAsTheProducerSentItWithTheGatewaysProperties()
      throws Exception {
    byte[] body = ContractFiles.clean(System.nanoTime());
    String key = key("clean");
    Map<String, String> producer = Map.of("tenant", "acme", WireNames.FILENAME, "notes.txt");
    String requestId = driver.send(UPLOADS, body, key, producer, ReplyTo.NONE);

    PipeMessage out = driver.take(UPLOADS, CLEAN, key, WAIT);
    assertThat(out.body()).isEqualTo(body);
    assertThat(out.properties())
        .containsEntry("tenant", "acme")
        .containsEntry(WireNames.FILENAME, "notes.txt")
        .containsEntry(WireNames.VERDICT, "CLEAN")
        .containsEntry(WireNames.SHA256, ContractFiles.sha256(body))
        .doesNotContainKeys(WireNames.SIGNATURE, WireNames.REASON);
    assertThat(Instant.parse(out.property(WireNames.SCANNED_AT))).isBefore(Instant.now());
    assertThat(out.property(WireNames.ENGINE)).startsWith("ClamAV");
    assertThat(out.requestId()).as("the forward names the request").isEqualTo(requestId);
    driver.assertProducerFieldsKept(out);

    MessageInfo doc = awaitHistory(requestId, Disposition.FORWARDED_CLEAN);
    assertThat(doc.verdict()).isEqualTo(Verdict.CLEAN);
    assertThat(doc.filename()).isEqualTo("notes.txt");
    assertNowhereElse(key, QUARANTINE, REJECTED, DEAD_LETTER);
  }

  @Test
  public void eicarGoesToQuarantineWithItsSignature() throws Exception {
    String key = key("eicar");
    String requestId = driver.send(UPLOADS, ContractFiles.eicar(), key, Map.of(), ReplyTo.NONE);

    PipeMessage out = driver.take(UPLOADS, QUARANTINE, key, WAIT);
    assertThat(out.body()).isEqualTo(ContractFiles.eicar());
    assertThat(out.property(WireNames.VERDICT)).isEqualTo("INFECTED");
    assertThat(out.property(WireNames.SIGNATURE)).startsWith(ContractFiles.EICAR_SIGNATURE);
    assertThat(awaitHistory(requestId, Disposition.QUARANTINED).verdict())
        .isEqualTo(Verdict.INFECTED);
    assertNowhereElse(key, CLEAN, REJECTED, DEAD_LETTER);
  }

  @Test
  public void aVerdictForgedByTheProducerIsReplaced() throws Exception {
    String key = key("forged");
    Map<String, String> forged = Map.of(WireNames.VERDICT, "CLEAN", WireNames.SHA256, "forged");
    String requestId = driver.send(UPLOADS, ContractFiles.eicar(), key, forged, ReplyTo.NONE);

    PipeMessage out = driver.take(UPLOADS, QUARANTINE, key, WAIT);
    assertThat(out.property(WireNames.VERDICT)).isEqualTo("INFECTED");
    assertThat(out.property(WireNames.SHA256))
        .isEqualTo(ContractFiles.sha256(ContractFiles.eicar()));
    awaitHistory(requestId, Disposition.QUARANTINED);
    assertNowhereElse(key, CLEAN, REJECTED, DEAD_LETTER);
  }

  @Test
  public void aFileOverTheSizeLimitIsRejectedUnreadWithItsReason() throws Exception {
    byte[] body = ContractFiles.large(driver.maxSizeBytes() + 50_000, 7);
    String key = key("large");
    String requestId = driver.send(UPLOADS, body, key, Map.of(), ReplyTo.NONE);

    PipeMessage out = driver.take(UPLOADS, REJECTED, key, WAIT);
    assertThat(out.body()).isEqualTo(body);
    assertThat(out.property(WireNames.VERDICT)).isEqualTo("UNSCANNABLE");
    assertThat(out.property(WireNames.REASON)).isEqualTo(Reason.TOO_LARGE.name());
    assertThat(awaitHistory(requestId, Disposition.REJECTED).reason()).isEqualTo(Reason.TOO_LARGE);
    assertNowhereElse(key, CLEAN, QUARANTINE, DEAD_LETTER);
  }

  @Test
  public void aProducerAskingForAReplyGetsOneAndTheFileIsForwardedToo() throws Exception {
    String key = key("reply");
    String requestId =
        driver.send(
            UPLOADS, ContractFiles.clean(System.nanoTime()), key, Map.of(), ReplyTo.ALLOWED);

    driver.take(UPLOADS, CLEAN, key, WAIT);
    PipeMessage reply = driver.takeReply(key, WAIT);
    assertThat(reply.property(WireNames.VERDICT)).isEqualTo("CLEAN");
    assertThat(ScanResultJson.decode(reply.body()).requestId()).isEqualTo(requestId);
    awaitHistory(requestId, Disposition.FORWARDED_CLEAN);
  }

  @Test
  public void aRefusedReplyDestinationCostsTheFileOnlyItsReply() throws Exception {
    String key = key("refused-reply");
    String requestId =
        driver.send(
            UPLOADS, ContractFiles.clean(System.nanoTime()), key, Map.of(), ReplyTo.REFUSED);

    driver.take(UPLOADS, CLEAN, key, WAIT);
    awaitHistory(requestId, Disposition.FORWARDED_CLEAN);
    // The refused destination is the clean outlet itself: a reply sent there would show.
    assertNowhereElse(key, CLEAN, DEAD_LETTER);
  }

  @Test
  public void aMissingOutletDeadLettersTheFileAndThePipeGoesOn() throws Exception {
    String missing = driver.removeBrokenCleanOutlet();
    String key = key("unroutable");
    String requestId =
        driver.send(BROKEN, ContractFiles.clean(System.nanoTime()), key, Map.of(), ReplyTo.NONE);

    PipeMessage letter = driver.take(BROKEN, DEAD_LETTER, key, WAIT);
    assertThat(letter.property(WireNames.REASON))
        .isEqualTo(DeadLetterReason.FORWARD_UNROUTABLE.name());
    assertThat(letter.property(WireNames.REASON_DETAIL)).contains(missing);
    assertThat(letter.property(WireNames.VERDICT)).isEqualTo("CLEAN");
    MessageInfo doc = awaitHistory(requestId, Disposition.DEAD_LETTERED);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.FORWARD_UNROUTABLE);

    String eicar = key("unroutable-eicar");
    driver.send(BROKEN, ContractFiles.eicar(), eicar, Map.of(), ReplyTo.NONE);
    assertThat(driver.take(BROKEN, QUARANTINE, eicar, WAIT).property(WireNames.VERDICT))
        .isEqualTo("INFECTED");
  }

  @Test
  public void aMessageThatIsNoFileIsDeadLetteredAsMalformedAndNotForwarded() throws Exception {
    String key = key("malformed");
    String sent = driver.sendMalformed(key);

    PipeMessage letter = driver.take(UPLOADS, DEAD_LETTER, key, WAIT);
    assertThat(letter.property(WireNames.REASON))
        .isEqualTo(DeadLetterReason.MALFORMED_REQUEST.name());
    String requestId = sent != null ? sent : letter.requestId();
    assertThat(requestId).as("the recorded request id").isNotNull();
    assertThat(awaitHistory(requestId, Disposition.DEAD_LETTERED).deadLetterReason())
        .isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
    assertNowhereElse(key, CLEAN, QUARANTINE, REJECTED);
  }

  /**
   * Nothing of {@code key} on any of {@code outlets}; asked once the file's history document is
   * visible, which comes after everything the gateway published for the file was committed (JMS) or
   * confirmed (AMQP).
   */
  private void assertNowhereElse(String key, Outlet... outlets) throws Exception {
    for (Outlet outlet : outlets) {
      assertThat(driver.count(outlet, key))
          .as("%s on %s of %s", key, outlet, Arrays.asList(outlets))
          .isZero();
    }
  }

  /** The history document of {@code requestId} once it shows {@code disposition}. */
  private MessageInfo awaitHistory(String requestId, Disposition disposition) {
    return HistoryPoll.await(
        "the history document of " + requestId + " as " + disposition,
        WAIT,
        driver::history,
        requestId,
        doc -> doc.disposition() == disposition);
  }

  private static String key(String kind) {
    return "pipe-" + kind + "-" + UUID.randomUUID();
  }
}
