package io.github.avgateway.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.WireNames;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The transport contract (docs/architecture.md, "Wire contract"): every front-end extends this
 * class and runs it against its real broker, with a real clamd and a real history store behind the
 * gateway. The subclass only supplies a {@link TransportDriver}; the gateway under test must have
 * no default reply destination, and its history must answer lookups by request id.
 *
 * <p>One instance runs all cases; {@link #createDriver()} is called once, after the subclass's
 * fields are set (e.g. injected by a Spring test context).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractTransportContractTests {

  private static final int FIFTY_MIB = 50 * 1024 * 1024;

  private final ContractInbox inbox = new ContractInbox();
  private TransportDriver driver;

  /** The driver for the front-end under test, with its gateway already running. */
  protected abstract TransportDriver createDriver() throws Exception;

  /** How long one reply or dead-letter may take. */
  protected Duration replyTimeout() {
    return Duration.ofSeconds(60);
  }

  /** How long a history document may take to become visible after its reply. */
  protected Duration historyTimeout() {
    return Duration.ofSeconds(30);
  }

  /** How long all replies of the concurrency case may take together. */
  protected Duration concurrentTimeout() {
    return Duration.ofMinutes(3);
  }

  @BeforeAll
  public final void openDriver() throws Exception {
    driver = createDriver();
    driver.open(inbox::reply, inbox::deadLetter);
  }

  @AfterAll
  public final void closeDriver() throws Exception {
    if (driver != null) {
      driver.close();
    }
  }

  /** The driver, for subclasses that add transport-specific cases. */
  protected final TransportDriver driver() {
    return driver;
  }

  @Test
  public void cleanFileIsAnsweredCleanWithItsCorrelationIdAndRecorded() throws Exception {
    byte[] body = ContractFiles.clean(System.nanoTime());
    String correlationId = newCorrelationId();
    String requestId = driver.send(ContractRequest.of(body, "notes.txt", correlationId));

    ContractReply reply = inbox.awaitReply(correlationId, replyTimeout());
    assertThat(reply.verdict()).isEqualTo("CLEAN");
    assertThat(reply.signature()).isNull();
    assertThat(reply.reason()).isNull();
    assertThat(reply.contentType()).isEqualTo(WireNames.JSON_CONTENT_TYPE);
    ScanResult result = reply.body();
    assertThat(result.requestId()).isEqualTo(requestId);
    assertThat(result.correlationId()).isEqualTo(correlationId);
    assertThat(result.verdict()).isEqualTo(Verdict.CLEAN);
    assertThat(result.sha256()).isEqualTo(ContractFiles.sha256(body));
    assertThat(result.sizeBytes()).isEqualTo(body.length);

    MessageInfo doc = awaitHistory(requestId);
    assertThat(doc.disposition()).isEqualTo(Disposition.REPLIED);
    assertThat(doc.verdict()).isEqualTo(Verdict.CLEAN);
    assertThat(doc.filename()).isEqualTo("notes.txt");
    assertThat(doc.correlationId()).isEqualTo(correlationId);
    assertThat(doc.sha256()).isEqualTo(result.sha256());
    assertAnsweredOnce(correlationId);
  }

  @Test
  public void eicarIsAnsweredInfectedWithItsSignature() throws Exception {
    String correlationId = newCorrelationId();
    String requestId =
        driver.send(ContractRequest.of(ContractFiles.eicar(), "eicar.com", correlationId));

    ContractReply reply = inbox.awaitReply(correlationId, replyTimeout());
    assertThat(reply.verdict()).isEqualTo("INFECTED");
    assertThat(reply.signature()).isEqualTo(ContractFiles.EICAR_SIGNATURE);
    assertThat(reply.reason()).isNull();
    assertThat(reply.body().verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(reply.body().signatures()).contains(ContractFiles.EICAR_SIGNATURE);
    assertThat(reply.body().requestId()).isEqualTo(requestId);

    MessageInfo doc = awaitHistory(requestId);
    assertThat(doc.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(doc.signatures()).contains(ContractFiles.EICAR_SIGNATURE);
    assertAnsweredOnce(correlationId);
  }

  @Test
  public void emptyBodyIsAnEmptyCleanFile() throws Exception {
    String correlationId = newCorrelationId();
    String requestId = driver.send(ContractRequest.of(new byte[0], null, correlationId));

    ContractReply reply = inbox.awaitReply(correlationId, replyTimeout());
    assertThat(reply.verdict()).isEqualTo("CLEAN");
    assertThat(reply.body().sizeBytes()).isZero();
    assertThat(reply.body().sha256()).isEqualTo(ContractFiles.sha256(new byte[0]));
    assertThat(awaitHistory(requestId).verdict()).isEqualTo(Verdict.CLEAN);
    assertAnsweredOnce(correlationId);
  }

  @Test
  public void fiftyMebibyteFileIsScannedWhole() throws Exception {
    byte[] body = ContractFiles.large(FIFTY_MIB, 50);
    String correlationId = newCorrelationId();
    String requestId = driver.send(ContractRequest.of(body, "large.bin", correlationId));

    ContractReply reply = inbox.awaitReply(correlationId, replyTimeout());
    assertThat(reply.verdict()).isEqualTo("CLEAN");
    assertThat(reply.body().sizeBytes()).isEqualTo(FIFTY_MIB);
    assertThat(reply.body().sha256()).isEqualTo(ContractFiles.sha256(body));
    assertThat(awaitHistory(requestId).sizeBytes()).isEqualTo(FIFTY_MIB);
    assertAnsweredOnce(correlationId);
  }

  @Test
  public void requestOfTheWrongTypeIsDeadLetteredAsMalformedAndRecorded() throws Exception {
    String correlationId = newCorrelationId();
    String sentId = driver.sendMalformed(correlationId);

    ContractDeadLetter deadLetter = inbox.awaitDeadLetter(correlationId, replyTimeout());
    assertThat(deadLetter.reason()).isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
    MessageInfo doc = awaitHistory(requestIdOf(sentId, deadLetter));
    assertThat(doc.disposition()).isEqualTo(Disposition.DEAD_LETTERED);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.MALFORMED_REQUEST);
    assertThat(doc.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(doc.reason()).isEqualTo(Reason.MALFORMED_REQUEST);
    assertThat(inbox.replies(correlationId)).isEmpty();
    assertThat(inbox.deadLetters(correlationId)).hasSize(1);
  }

  @Test
  public void requestWithoutReplyDestinationIsDeadLetteredAndRecorded() throws Exception {
    String correlationId = newCorrelationId();
    ContractRequest request =
        new ContractRequest(ContractFiles.clean(7), "orphan.txt", correlationId, false);
    String sentId = driver.send(request);

    ContractDeadLetter deadLetter = inbox.awaitDeadLetter(correlationId, replyTimeout());
    assertThat(deadLetter.reason()).isEqualTo(DeadLetterReason.NO_REPLY_DESTINATION);
    MessageInfo doc = awaitHistory(requestIdOf(sentId, deadLetter));
    assertThat(doc.disposition()).isEqualTo(Disposition.DEAD_LETTERED);
    assertThat(doc.deadLetterReason()).isEqualTo(DeadLetterReason.NO_REPLY_DESTINATION);
    assertThat(doc.filename()).isEqualTo("orphan.txt");
    assertThat(inbox.replies(correlationId)).isEmpty();
    assertThat(inbox.deadLetters(correlationId)).hasSize(1);
  }

  @Test
  public void correlationIdIsKept() throws Exception {
    String correlationId = "caller-" + UUID.randomUUID();
    String requestId =
        driver.send(ContractRequest.of(ContractFiles.clean(11), null, correlationId));

    ContractReply reply = inbox.awaitReply(correlationId, replyTimeout());
    assertThat(reply.correlationId()).isEqualTo(correlationId);
    assertThat(reply.body().correlationId()).isEqualTo(correlationId);
    assertThat(reply.body().requestId()).isEqualTo(requestId);
  }

  @Test
  public void correlationIdFallsBackToTheRequestId() throws Exception {
    String requestId = driver.send(ContractRequest.of(ContractFiles.clean(13), null, null));

    ContractReply reply = inbox.awaitReply(requestId, replyTimeout());
    assertThat(reply.correlationId()).isEqualTo(requestId);
    assertThat(reply.body().requestId()).isEqualTo(requestId);
    assertThat(reply.body().correlationId()).isEqualTo(requestId);
    assertThat(awaitHistory(requestId).correlationId()).isNull();
    assertAnsweredOnce(requestId);
  }

  @Test
  public void thousandConcurrentRequestsAreEachAnsweredOnceWithTheRightVerdict() throws Exception {
    ConcurrentRun run = ConcurrentRun.send(driver, 1000, 8);
    run.awaitReplies(inbox, concurrentTimeout());
    run.checkReplies(inbox);
    for (ConcurrentRun.Sent sent : run.sent()) {
      MessageInfo doc = awaitHistory(sent.requestId());
      assertThat(doc.verdict()).as(sent.correlationId()).isEqualTo(sent.expected());
      assertThat(doc.disposition()).isEqualTo(Disposition.REPLIED);
    }
  }

  /** Waits until the history document of {@code requestId} is visible, and returns it. */
  protected final MessageInfo awaitHistory(String requestId) {
    MessageInfo doc =
        HistoryPoll.await(
            "the history document of request " + requestId,
            historyTimeout(),
            driver::history,
            requestId,
            found -> true);
    assertThat(doc.requestId()).isEqualTo(requestId);
    assertThat(doc.transport()).isEqualTo(driver.transport());
    assertThat(doc.id()).isEqualTo(MessageInfo.idFor(driver.transport(), requestId));
    return doc;
  }

  /** A correlation id no other case uses. */
  protected static String newCorrelationId() {
    return "contract-" + UUID.randomUUID();
  }

  private void assertAnsweredOnce(String correlationId) {
    assertThat(inbox.replies(correlationId)).hasSize(1);
    assertThat(inbox.deadLetters(correlationId)).isEmpty();
  }

  private static String requestIdOf(String sentId, ContractDeadLetter deadLetter) {
    if (sentId != null && deadLetter.requestId() != null) {
      assertThat(deadLetter.requestId()).isEqualTo(sentId);
    }
    String requestId = sentId != null ? sentId : deadLetter.requestId();
    assertThat(requestId).as("request id of the dead-lettered request").isNotNull();
    return requestId;
  }
}
