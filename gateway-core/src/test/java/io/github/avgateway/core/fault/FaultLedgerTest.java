package io.github.avgateway.core.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultLedgerTest {

  @TempDir Path dir;
  private final FaultLedger ledger = new FaultLedger("unit/ledger");

  @BeforeEach
  void reportToTempDir() {
    System.setProperty("avgateway.fault.report-file", dir.resolve("r.md").toString());
  }

  @AfterEach
  void resetReportFile() {
    System.clearProperty("avgateway.fault.report-file");
  }

  @Test
  void aCleanRunHolds() {
    send("a", Expected.clean());
    send("b", Expected.infected());
    ledger.reply("a", Verdict.CLEAN, null);
    ledger.reply("b", Verdict.INFECTED, null);
    ledger.history(doc("a", Verdict.CLEAN, false, null));
    ledger.history(doc("b", Verdict.INFECTED, false, null));

    FaultReport report = ledger.report().print().assertHolds(Duplicates.FORBIDDEN);
    report.assertAsExpected();
    assertThat(report.sent()).isEqualTo(2);
    assertThat(report.replied()).isEqualTo(2);
    assertThat(ledger.unanswered()).isZero();
    assertThat(TestFiles.linesContaining(dir, List.of("unit/ledger"))).hasSize(1);
  }

  @Test
  void aConfirmedRequestWithoutAnswerIsLostButAnUnconfirmedOneIsNot() {
    send("a", Expected.clean());
    ledger.sent("unconfirmed", Expected.clean());
    send("b", Expected.clean());
    ledger.reply("b", Verdict.CLEAN, null);
    ledger.history(doc("b", Verdict.CLEAN, false, null));

    FaultReport report = ledger.report();
    assertThat(report.lost()).isEqualTo(1);
    assertThat(report.confirmed()).isEqualTo(2);
    assertThat(ledger.unanswered()).isEqualTo(1);
    assertThatThrownBy(() -> report.assertHolds(Duplicates.FORBIDDEN)).hasMessageContaining("lost");
  }

  @Test
  void eicarAnsweredOrRecordedCleanIsUnsafe() {
    send("a", Expected.infected());
    send("b", Expected.unscannable(Reason.LIMITS_EXCEEDED, true));
    ledger.reply("a", Verdict.CLEAN, null);
    ledger.reply("b", Verdict.UNSCANNABLE, Reason.LIMITS_EXCEEDED);
    ledger.history(doc("a", Verdict.CLEAN, false, null));
    ledger.history(doc("b", Verdict.CLEAN, false, null));

    FaultReport report = ledger.report();
    assertThat(report.unsafe()).isEqualTo(2);
    assertThat(report.inconsistent()).isEqualTo(1);
    assertThat(report.unexpected()).isEqualTo(1);
    assertThatThrownBy(() -> report.assertHolds(Duplicates.FORBIDDEN))
        .hasMessageContaining("unsafe CLEAN");
    assertThat(report.unexpectedAnswers()).hasSize(1);
    assertThat(report.unexpectedAnswers().get(0))
        .startsWith("a: expected Expected[verdict=INFECTED")
        .contains("answered [Reply[verdict=CLEAN, reason=null]]")
        .contains("history CLEAN received 1970-01-01T00:00:00Z");
    assertThatThrownBy(report::assertAsExpected)
        .hasMessageContaining("unexpected answers:\na: expected");
  }

  @Test
  void aRepeatIsADuplicateExplainedOnlyWhenHistorySaysRedelivered() {
    send("a", Expected.clean());
    send("b", Expected.clean());
    ledger.reply("a", Verdict.CLEAN, null);
    ledger.reply("a", Verdict.CLEAN, null);
    ledger.reply("b", Verdict.CLEAN, null);
    ledger.reply("b", Verdict.CLEAN, null);
    ledger.history(doc("a", Verdict.CLEAN, true, null));
    ledger.history(doc("b", Verdict.CLEAN, false, null));

    FaultReport report = ledger.report();
    assertThat(report.duplicates()).isEqualTo(2);
    assertThat(report.unexplainedDuplicates()).isEqualTo(1);
    assertThatThrownBy(() -> report.assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY))
        .hasMessageContaining("not explained");
    assertThat(ledger.unexplainedRepeats())
        .singleElement()
        .asString()
        .startsWith("b: expected")
        .contains("history CLEAN")
        .doesNotContain("redelivered");
  }

  @Test
  void anAnswerTheCallersQueueDeliversAgainIsSeenAgainNotADuplicate() {
    send("a", Expected.clean());
    send("b", Expected.clean());
    send("c", Expected.clean());
    ledger.reply("a", Verdict.CLEAN, null);
    ledger.observeAgain("a", new Outcome.Reply(Verdict.CLEAN, null));
    ledger.observeAgain("b", new Outcome.Reply(Verdict.CLEAN, null));
    ledger.reply("c", Verdict.CLEAN, null);
    ledger.reply("c", Verdict.CLEAN, null);
    ledger.observeAgain("c", new Outcome.Reply(Verdict.CLEAN, null));
    ledger.history(doc("a", Verdict.CLEAN, false, null));
    ledger.history(doc("b", Verdict.CLEAN, false, null));
    ledger.history(doc("c", Verdict.CLEAN, false, null));

    FaultReport report = ledger.report();
    assertThat(report.seenAgain()).as("a's and c's second deliveries").isEqualTo(2);
    assertThat(report.replied())
        .as("b's first delivery went unread: its redelivery counts")
        .isEqualTo(3);
    assertThat(report.duplicates()).as("c answered twice by the gateway").isOne();
    assertThat(report.unexplainedDuplicates()).isOne();
    assertThat(report.line()).contains("seen-again=2");
  }

  @Test
  void anAnswerSeenAgainWithAnotherVerdictIsStillAnOutcome() {
    send("a", Expected.infected());
    ledger.reply("a", Verdict.INFECTED, null);
    ledger.observeAgain("a", new Outcome.Reply(Verdict.ERROR, Reason.SCAN_FAILED));

    FaultReport report = ledger.report();
    assertThat(report.seenAgain()).isZero();
    assertThat(report.duplicates()).isOne();
    assertThat(report.inconsistent()).isOne();
  }

  @Test
  void aDifferentVerdictOnRedeliveryIsInconsistent() {
    send("a", Expected.infected());
    ledger.reply("a", Verdict.INFECTED, null);
    ledger.reply("a", Verdict.ERROR, Reason.SCAN_FAILED);
    ledger.history(doc("a", Verdict.ERROR, true, null));

    assertThat(ledger.report().inconsistent()).isEqualTo(1);
  }

  @Test
  void historyMissingExtraAndStraysAreCounted() {
    send("a", Expected.deadLetter(DeadLetterReason.MALFORMED_REQUEST, Verdict.ERROR, false));
    send("b", Expected.clean());
    send("c", Expected.clean());
    ledger.deadLetter("a", DeadLetterReason.MALFORMED_REQUEST, Verdict.ERROR, null);
    ledger.reply("b", Verdict.CLEAN, null);
    ledger.deadLetter("c", null, null, null);
    ledger.history(doc("b", Verdict.CLEAN, false, null));
    ledger.history(doc("never-sent", Verdict.CLEAN, false, null));
    ledger.reply("never-sent", Verdict.CLEAN, null);

    FaultReport report = ledger.report();
    assertThat(report.historyMissing()).as("a has none; c was dead-lettered by the broker").isOne();
    assertThat(ledger.keysWithoutHistory()).containsExactly("a");
    assertThat(report.historyExtra()).isOne();
    assertThat(report.strays()).isOne();
    assertThat(report.deadLettered()).isEqualTo(2);
  }

  @Test
  void anEmptyRunDoesNotHold() {
    assertThatThrownBy(() -> ledger.report().assertHolds(Duplicates.FORBIDDEN))
        .hasMessageContaining("confirmed");
  }

  private void send(String key, Expected expected) {
    ledger.sent(key, expected);
    ledger.confirmed(key);
  }

  private static MessageInfo doc(
      String key, Verdict verdict, boolean redelivered, DeadLetterReason dead) {
    return new MessageInfo(
        MessageInfo.idFor("unit", key),
        key,
        key,
        "unit",
        null,
        null,
        null,
        1,
        "0",
        verdict,
        List.of(),
        null,
        "engine",
        "",
        false,
        Instant.EPOCH,
        Instant.EPOCH,
        0,
        0,
        "gw",
        redelivered,
        dead == null ? Disposition.REPLIED : Disposition.DEAD_LETTERED,
        dead);
  }
}
