package io.github.avgateway.core.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RateRecoveryTest {

  private static final long SECOND = 1_000_000_000L;
  private static final long START = 5 * SECOND;
  private static final long EVENT = START + 10 * SECOND;

  /** The event at {@link #EVENT} against the 10 s before it, measured for {@code seconds}. */
  private static RateRecovery measure(long[] answers, long[] inFlight, int seconds) {
    return RateRecovery.measure(
        "unit",
        answers,
        inFlight,
        "event",
        EVENT,
        Duration.ofSeconds(10),
        EVENT + seconds * SECOND);
  }

  /** {@code perSecond} answers evenly spread over each second from {@code from} for {@code s}. */
  private static LongStream steady(long from, int seconds, int perSecond) {
    long step = SECOND / perSecond;
    return LongStream.range(0, (long) seconds * perSecond).map(i -> from + step / 2 + i * step);
  }

  @Test
  void aPauseAfterTheEventIsMeasuredUntilTheRateIsBack() {
    long[] answers =
        LongStream.concat(
                steady(START, 10, 10),
                LongStream.concat(
                    steady(EVENT + 2 * SECOND, 1, 5), steady(EVENT + 3 * SECOND, 4, 10)))
            .toArray();

    RateRecovery rate = measure(answers, new long[] {0, EVENT + 2 * SECOND + SECOND / 10}, 7);

    assertThat(rate.before()).isEqualTo(10.0);
    assertThat(rate.perSecond()).containsExactly(0, 0, 5, 10, 10, 10, 10);
    assertThat(rate.lowest()).isZero();
    assertThat(rate.backTo90()).isEqualTo(Duration.ofSeconds(3));
    assertThat(rate.longestPause()).isEqualTo(Duration.ofMillis(2100));
    assertThat(rate.inFlight()).isEqualTo(2);
    assertThat(rate.firstInFlightAnswer()).isEqualTo(Duration.ofMillis(2100));
    assertThat(rate.line())
        .contains(
            "10.0/s before",
            "back to 90 % 3 s after it",
            "2 in flight at it, the first of them answered 2.1 s after it",
            "0 0 5 10");
  }

  @Test
  void aRateThatNeverDropsIsBackAtOnce() {
    RateRecovery rate = measure(steady(START, 15, 20).toArray(), new long[0], 5);

    assertThat(rate.before()).isEqualTo(20.0);
    assertThat(rate.perSecond()).isEqualTo(List.of(20, 20, 20, 20, 20));
    assertThat(rate.backTo90()).isZero();
    assertThat(rate.longestPause()).isEqualTo(Duration.ofMillis(50));
    assertThat(rate.line()).contains("0 in flight at it, none of them answered");
  }

  @Test
  void noAnswerAfterTheEventIsAPauseOfTheWholeSpan() {
    RateRecovery rate = measure(steady(START, 10, 10).toArray(), new long[] {0}, 3);

    assertThat(rate.perSecond()).containsExactly(0, 0, 0);
    assertThat(rate.longestPause()).isEqualTo(Duration.ofSeconds(3));
    assertThat(rate.backTo90()).isEqualTo(Duration.ofSeconds(3));
    assertThat(rate.firstInFlightAnswer()).isNull();
  }

  @Test
  void theLedgerTimesEachRequestsFirstAnswerOnly() {
    FaultLedger ledger = new FaultLedger("unit/times");
    ledger.sent("a", Expected.clean());
    ledger.sent("b", Expected.clean());
    ledger.reply("a", Verdict.CLEAN, null);
    long[] first = ledger.answerTimes();
    ledger.reply("a", Verdict.CLEAN, null);

    assertThat(first).hasSize(1);
    assertThat(ledger.answerTimes()).containsExactly(first);
    assertThat(ledger.inFlightAt(first[0]))
        .as("b unanswered, a answered at that moment")
        .hasSize(2);
    assertThat(ledger.inFlightAt(first[0] + 1)).containsExactly(0L);
  }
}
