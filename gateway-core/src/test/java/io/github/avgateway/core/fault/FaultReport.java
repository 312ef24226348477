package io.github.avgateway.core.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.assertj.core.api.SoftAssertions;

/**
 * The counts of one fault scenario (issue 8), printed as one line and asserted.
 *
 * @param scenario e.g. {@code amqp/rabbitmq-kill-9}
 * @param elapsed from the ledger's creation to this report
 * @param sent requests the client tried to send
 * @param confirmed requests the broker confirmed (only these must be answered)
 * @param replied requests with at least one reply
 * @param deadLettered requests with at least one dead-letter
 * @param lost confirmed requests with neither reply nor dead-letter: must be 0
 * @param duplicates answers beyond the first, summed over requests (at-least-once redelivery)
 * @param unexplainedDuplicates requests answered more than once whose history document does not say
 *     {@code redelivered}: must be 0
 * @param unsafe EICAR-bearing requests answered or recorded CLEAN: must be 0
 * @param inconsistent requests that got (or were recorded with) more than one verdict: must be 0
 * @param historyMissing requests answered by the gateway without a history document: must be 0
 * @param historyExtra history documents beyond one per request, or of requests never sent: must be
 *     0
 * @param unexpected requests whose first answer is not the one {@link Expected} (a typed answer
 *     still, e.g. ERROR {@code SCAN_FAILED} while clamd was frozen); asserted only by {@link
 *     #assertAsExpected()}
 * @param strays replies or dead-letters whose key the ledger never sent (another run's)
 * @param seenAgain answers the caller's queue delivered again, marked redelivered, after one equal
 *     to them was recorded: not counted as outcomes ({@link FaultLedger#observeAgain})
 * @param unexpectedAnswers the first few {@code unexpected} requests, each with what was expected,
 *     what came and what its history documents say, so that a failed run names them
 */
public record FaultReport(
    String scenario,
    Duration elapsed,
    int sent,
    int confirmed,
    int replied,
    int deadLettered,
    int lost,
    int duplicates,
    int unexplainedDuplicates,
    int unsafe,
    int inconsistent,
    int historyMissing,
    int historyExtra,
    int unexpected,
    int strays,
    int seenAgain,
    List<String> unexpectedAnswers) {

  /** Where {@link #print()} appends its table row; {@code avgateway.fault.report-file}. */
  public static Path reportFile() {
    return Path.of(System.getProperty("avgateway.fault.report-file", "target/fault-reports.md"));
  }

  /** Whether the scenario's fault may explain a request being answered more than once. */
  public enum Duplicates {
    /** No redelivery expected: every request answered exactly once. */
    FORBIDDEN,
    /** At-least-once redelivery (crash, lost connection): repeats allowed if history shows it. */
    EXPLAINED_BY_REDELIVERY,
    /** The client itself sent some requests twice: repeats expected, verdicts must still agree. */
    CLIENT_REPEATS
  }

  /** The one-line summary of the counts. */
  public String line() {
    return String.format(
        Locale.ROOT,
        "FAULT %s: sent=%d confirmed=%d replied=%d dead-lettered=%d lost=%d duplicates=%d"
            + " (unexplained %d) unsafe=%d inconsistent=%d history-missing=%d history-extra=%d"
            + " unexpected=%d strays=%d seen-again=%d in %.1fs",
        scenario,
        sent,
        confirmed,
        replied,
        deadLettered,
        lost,
        duplicates,
        unexplainedDuplicates,
        unsafe,
        inconsistent,
        historyMissing,
        historyExtra,
        unexpected,
        strays,
        seenAgain,
        elapsed.toMillis() / 1000.0);
  }

  /** A row of docs/reliability.md's table. */
  public String markdownRow() {
    return String.format(
        Locale.ROOT,
        "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d/%d | %d | %.0f s |",
        scenario,
        sent,
        confirmed,
        replied,
        deadLettered,
        lost,
        duplicates,
        unsafe,
        inconsistent,
        historyMissing,
        historyExtra,
        unexpected,
        elapsed.toMillis() / 1000.0);
  }

  /** Prints {@link #line()} to standard output and appends {@link #markdownRow()} to the file. */
  public FaultReport print() {
    PrintStream out = System.out;
    out.println(line());
    unexpectedAnswers.forEach(answer -> out.println("  unexpected: " + answer));
    appendToReportFile(markdownRow());
    return this;
  }

  /** Appends {@code line} to {@link #reportFile()}. */
  static void appendToReportFile(String line) {
    try {
      Path file = reportFile().toAbsolutePath();
      Files.createDirectories(file.getParent());
      Files.writeString(
          file,
          line + System.lineSeparator(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The guarantees of issue 8: lost = 0, unsafe = 0, inconsistent = 0, one history document per
   * answered request, and no repeats unless {@code duplicates} allows those redelivery explains.
   * Also requires that something was confirmed and answered, so that an empty run cannot pass.
   */
  public FaultReport assertHolds(Duplicates duplicates) {
    SoftAssertions soft = new SoftAssertions();
    soft.assertThat(confirmed).as(line() + "\nconfirmed").isPositive();
    soft.assertThat(replied + deadLettered).as("answered").isPositive();
    soft.assertThat(lost).as("lost").isZero();
    soft.assertThat(unsafe).as("unsafe CLEAN").isZero();
    soft.assertThat(inconsistent).as("inconsistent verdicts").isZero();
    soft.assertThat(historyMissing).as("requests without a history document").isZero();
    soft.assertThat(historyExtra).as("extra history documents").isZero();
    switch (duplicates) {
      case FORBIDDEN -> soft.assertThat(this.duplicates).as("duplicates").isZero();
      case EXPLAINED_BY_REDELIVERY ->
          soft.assertThat(unexplainedDuplicates)
              .as("duplicates not explained by a redelivery")
              .isZero();
      case CLIENT_REPEATS -> soft.assertThat(this.duplicates).as("repeats answered").isPositive();
    }
    soft.assertAll();
    return this;
  }

  /** Every request's first answer was the one expected. */
  public FaultReport assertAsExpected() {
    assertThat(unexpected)
        .as(line() + "\nunexpected answers:\n" + String.join("\n", unexpectedAnswers))
        .isZero();
    return this;
  }
}
