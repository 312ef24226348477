package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ClamdReplyParserTest {

  private static final EngineVersion ENGINE = new EngineVersion("ClamAV 1.4.6", "");

  private static ScanReport report(String reply) {
    return ClamdReplyParser.parse(reply).toReport(true, ENGINE, 7);
  }

  @Test
  void okIsClean() {
    assertThat(ClamdReplyParser.parse("stream: OK")).isEqualTo(new ClamdReply.Clean());
    ScanReport report = report("stream: OK");
    assertThat(report.verdict()).isEqualTo(Verdict.CLEAN);
    assertThat(report.engine()).isEqualTo(ENGINE);
    assertThat(report.scanMillis()).isEqualTo(7);
  }

  @Test
  void okWithTrailingNewlineIsClean() {
    assertThat(report("stream: OK\n").verdict()).isEqualTo(Verdict.CLEAN);
  }

  @Test
  void okToAStreamThatWasNotSentWholeIsAnError() {
    ScanReport report = ClamdReplyParser.parse("stream: OK").toReport(false, ENGINE, 1);
    assertThat(report.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
    assertThat(report.detail()).contains("before the whole payload was sent");
  }

  @Test
  void foundIsInfectedWithTheSignature() {
    ScanReport report = report("stream: Eicar-Test-Signature.UNOFFICIAL FOUND");
    assertThat(report.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(report.signatures()).containsExactly("Eicar-Test-Signature.UNOFFICIAL");
  }

  @Test
  void foundToACutStreamIsStillInfected() {
    ScanReport report =
        ClamdReplyParser.parse("stream: Win.Test.EICAR_HDB-1 FOUND").toReport(false, ENGINE, 1);
    assertThat(report.verdict()).isEqualTo(Verdict.INFECTED);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "stream: Eicar-Test-Signature FOUND\nstream: ClamAV-Test-File FOUND",
        "stream: Eicar-Test-Signature FOUND\0stream: ClamAV-Test-File FOUND",
        "stream: Eicar-Test-Signature FOUND\n\nstream: ClamAV-Test-File FOUND\n",
        "stream: Eicar-Test-Signature FOUND\nstream: OK\nstream: ClamAV-Test-File FOUND"
      })
  void severalFoundLinesKeepEverySignatureInOrder(String reply) {
    ScanReport report = report(reply);
    assertThat(report.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(report.signatures()).containsExactly("Eicar-Test-Signature", "ClamAV-Test-File");
  }

  @Test
  void aSignatureNextToAHeuristicIsInfectedWithBoth() {
    ScanReport report =
        report("stream: Eicar-Test-Signature FOUND\nstream: Heuristics.Encrypted.Zip FOUND");
    assertThat(report.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(report.signatures())
        .containsExactly("Eicar-Test-Signature", "Heuristics.Encrypted.Zip");
  }

  @Test
  void aSignatureNextToAnErrorIsInfected() {
    ScanReport report = report("stream: Eicar-Test-Signature FOUND\nstream: Can't stat ERROR");
    assertThat(report.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(report.signatures()).containsExactly("Eicar-Test-Signature");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Heuristics.Limits.Exceeded.MaxRecursion",
        "Heuristics.Limits.Exceeded.MaxScanTime",
        "Heuristics.Limits.Exceeded.MaxFileSize",
        "Heuristics.Limits.Exceeded.MaxScanSize",
        "Heuristics.Limits.Exceeded.MaxFiles"
      })
  void limitsExceededIsUnscannable(String heuristic) {
    ScanReport report = report("stream: " + heuristic + " FOUND");
    assertThat(report.verdict()).isEqualTo(Verdict.UNSCANNABLE);
    assertThat(report.reason()).isEqualTo(Reason.LIMITS_EXCEEDED);
    assertThat(report.detail()).contains(heuristic);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Heuristics.Encrypted.Zip",
        "Heuristics.Encrypted.RAR",
        "Heuristics.Encrypted.PDF",
        "Heuristics.Encrypted.Doc"
      })
  void encryptedIsUnscannable(String heuristic) {
    ScanReport report = report("stream: " + heuristic + " FOUND");
    assertThat(report.verdict()).isEqualTo(Verdict.UNSCANNABLE);
    assertThat(report.reason()).isEqualTo(Reason.ENCRYPTED);
    assertThat(report.detail()).contains(heuristic);
  }

  @Test
  void encryptedAndLimitsTogetherIsEncrypted() {
    ScanReport report =
        report(
            "stream: Heuristics.Limits.Exceeded.MaxFiles FOUND\n"
                + "stream: Heuristics.Encrypted.Zip FOUND");
    assertThat(report.reason()).isEqualTo(Reason.ENCRYPTED);
  }

  @Test
  void streamSizeLimitIsTooLarge() {
    ScanReport report = report("INSTREAM size limit exceeded. ERROR");
    assertThat(report.verdict()).isEqualTo(Verdict.UNSCANNABLE);
    assertThat(report.reason()).isEqualTo(Reason.TOO_LARGE);
    assertThat(report.detail()).contains("INSTREAM size limit exceeded");
    assertThat(ClamdReplyParser.parse("INSTREAM size limit exceeded. ERROR").keepsSession())
        .isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "stream: Can't allocate memory ERROR",
        "stream: Not a regular file ERROR",
        "Command invalid inside IDSESSION. ERROR",
        "stream: OK\nstream: Can't create temporary file ERROR",
        "Error processing command. ERROR"
      })
  void otherErrorsFailWithClamdsWords(String reply) {
    ScanReport report = report(reply);
    assertThat(report.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
    assertThat(report.detail()).contains(reply.lines().toList().getLast());
  }

  /**
   * Errors without the {@code stream: } prefix come from clamd's session handling, not from a scan
   * of the payload: a stopping clamd answers the INSTREAM it can no longer dispatch with the first
   * two. They are refusals (the client retries them as a broken session), never a verdict.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "Error processing command. ERROR",
        "PROTOCOL ERROR: ancillary data sent without FILDES. ERROR",
        "Command invalid inside IDSESSION. ERROR",
        "Error writing to temporary file ERROR"
      })
  void errorsNotAboutTheStreamAreRefusals(String reply) {
    ClamdReply parsed = ClamdReplyParser.parse(reply);
    assertThat(parsed).isInstanceOf(ClamdReply.Refused.class);
    assertThat(parsed.keepsSession()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "stream: Can't allocate memory ERROR",
        "stream: OK\nstream: Can't create temporary file ERROR",
        "stream: Can't create temporary file ERROR\nError processing command. ERROR"
      })
  void errorsAboutTheStreamAreFailuresEvenWithARefusal(String reply) {
    assertThat(ClamdReplyParser.parse(reply)).isInstanceOf(ClamdReply.Failed.class);
  }

  @Test
  void aRefusalWithAnOkOrASignatureIsNeverClean() {
    assertThat(ClamdReplyParser.parse("stream: OK\nError processing command. ERROR"))
        .isInstanceOf(ClamdReply.Refused.class);
    assertThat(ClamdReplyParser.parse("stream: X FOUND\nError processing command. ERROR"))
        .isEqualTo(new ClamdReply.Found(List.of("X")));
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {" ", "\n", "\0", "\0\0\n "})
  void emptyRepliesFail(String reply) {
    ScanReport report = report(reply);
    assertThat(report.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(report.detail()).contains("empty reply");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "stream: O",
        "stream:",
        "stream: ",
        "strea",
        "stream: Eicar-Test-Signature FOU",
        "stream: Eicar-Test-Signature",
        "stream:  FOUND",
        "stream: FOUND",
        "stream: Eicar Test FOUND",
        "stream: ok",
        "STREAM: OK",
        "stream: OK OK",
        "stream:OK",
        "OK",
        "PONG",
        "UNKNOWN COMMAND",
        "ClamAV 1.4.6/27451/Sun Nov 22 08:00:00 2026",
        "1: stream: OK",
        "stream: OK\nPONG",
        "stream: Eicar FOUND\ngarbage"
      })
  void truncatedOrUnknownRepliesFail(String reply) {
    ScanReport report = report(reply);
    assertThat(report.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(report.reason()).isEqualTo(Reason.SCAN_FAILED);
    assertThat(report.detail()).isNotBlank();
  }

  @Test
  void twoOksAreNotClean() {
    assertThat(report("stream: OK\nstream: OK").verdict()).isEqualTo(Verdict.ERROR);
  }

  @Test
  void onlyTheExactOkReplyIsEverClean() {
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < 50_000; i++) {
      String text =
          random.nextBoolean()
              ? noise(random, 16)
              : noise(random, 3) + "stream: OK" + noise(random, 3);
      boolean clean = ClamdReplyParser.parse(text) instanceof ClamdReply.Clean;
      boolean exactlyOk = text.replace('\0', '\n').strip().equals("stream: OK");
      assertThat(clean).as("reply %s", List.of(text)).isEqualTo(exactlyOk);
    }
  }

  private static String noise(SplittableRandom random, int maxLength) {
    String alphabet = "stream: OKFUNDERHisc.-\n\0 ";
    StringBuilder text = new StringBuilder();
    for (int j = random.nextInt(maxLength + 1); j > 0; j--) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  @Test
  void sessionsAreKeptOnlyAfterScanResults() {
    assertThat(ClamdReplyParser.parse("stream: OK").keepsSession()).isTrue();
    assertThat(ClamdReplyParser.parse("stream: X FOUND").keepsSession()).isTrue();
    assertThat(ClamdReplyParser.parse("stream: Heuristics.Encrypted.Zip FOUND").keepsSession())
        .isTrue();
    assertThat(ClamdReplyParser.parse("stream: Heuristics.Limits.Exceeded.MaxFiles FOUND"))
        .matches(ClamdReply::keepsSession);
    assertThat(ClamdReplyParser.parse("stream: Can't ERROR").keepsSession()).isFalse();
    assertThat(ClamdReplyParser.parse("gibberish").keepsSession()).isFalse();
  }
}
