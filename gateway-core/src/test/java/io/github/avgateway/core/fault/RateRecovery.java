package io.github.avgateway.core.fault;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the answer rate of a scenario under a steady load went through one event (a fault, or one
 * step of it), from the first answer of every request ({@link FaultLedger#answerTimes()}): the rate
 * in a baseline before the event, the answers of each whole second after it until the next event
 * (or the end of the load), the lowest of those, the longest time without any answer, and when the
 * rate was back to {@link #SHARE} of the baseline: the end of the last second below it (zero when
 * no second was).
 *
 * @param scenario the ledger's scenario
 * @param event what happened, e.g. {@code node 3 (leader) killed}
 * @param before answers per second in the baseline
 * @param perSecond answers in each whole second from the event on
 * @param longestPause the longest time from the event, or from an answer, to the next answer
 * @param backTo90 from the event to the end of the last second below {@link #SHARE} of {@code
 *     before}
 * @param inFlight requests sent before the event and not answered by then
 * @param firstInFlightAnswer from the event to the first answer of one of those, or null when none
 *     was answered (or none was in flight): how long the fault held the gateways' work, apart from
 *     the callers' own sends, which a fault may hold as well
 */
public record RateRecovery(
    String scenario,
    String event,
    double before,
    List<Integer> perSecond,
    Duration longestPause,
    Duration backTo90,
    int inFlight,
    Duration firstInFlightAnswer) {

  /** The share of the baseline rate that counts as recovered. */
  public static final double SHARE = 0.9;

  private static final long SECOND = 1_000_000_000L;

  /**
   * Measures {@code event}, which happened at {@code eventNanos}, against the rate of the {@code
   * baseline} before it, over the whole seconds until {@code untilNanos}.
   */
  public static RateRecovery measure(
      FaultLedger ledger, String event, long eventNanos, Duration baseline, long untilNanos) {
    return measure(
        ledger.scenario(),
        ledger.answerTimes(),
        ledger.inFlightAt(eventNanos),
        event,
        eventNanos,
        baseline,
        untilNanos);
  }

  /**
   * As {@link #measure(FaultLedger, String, long, Duration, long)}, on sorted answer times and the
   * answer times (0: none) of the requests in flight at the event.
   */
  static RateRecovery measure(
      String scenario,
      long[] answers,
      long[] inFlight,
      String event,
      long eventNanos,
      Duration baseline,
      long untilNanos) {
    double before =
        count(answers, eventNanos - baseline.toNanos(), eventNanos)
            * (double) SECOND
            / baseline.toNanos();
    List<Integer> seconds = new ArrayList<>();
    int lastBelow = -1;
    for (long from = eventNanos; from + SECOND <= untilNanos; from += SECOND) {
      int count = count(answers, from, from + SECOND);
      if (count < SHARE * before) {
        lastBelow = seconds.size();
      }
      seconds.add(count);
    }
    return new RateRecovery(
        scenario,
        event,
        before,
        List.copyOf(seconds),
        Duration.ofNanos(longestPause(answers, eventNanos, untilNanos)),
        Duration.ofSeconds(lastBelow + 1L),
        inFlight.length,
        Arrays.stream(inFlight).filter(t -> t != 0).min().stream()
            .mapToObj(t -> Duration.ofNanos(t - eventNanos))
            .findFirst()
            .orElse(null));
  }

  /** Answers per second over the {@code window} that ends now. */
  public static double rateNow(FaultLedger ledger, Duration window) {
    long now = System.nanoTime();
    return count(ledger.answerTimes(), now - window.toNanos(), now)
        * (double) SECOND
        / window.toNanos();
  }

  /**
   * Waits (bounded by {@code limit}) until the answers of the last {@code window} came at {@link
   * #SHARE} of {@code perSecond} or more: the load is served again.
   */
  public static void awaitRate(
      FaultLedger ledger, double perSecond, Duration window, Duration limit) {
    await(ledger.scenario() + ": " + SHARE + " x " + perSecond + " answers/s over " + window)
        .atMost(limit)
        .pollDelay(window)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> rateNow(ledger, window) >= SHARE * perSecond);
  }

  /** The lowest count of one second after the event, or -1 when no whole second was measured. */
  public int lowest() {
    return perSecond.stream().mapToInt(Integer::intValue).min().orElse(-1);
  }

  /** One line for the run's output and the report file. */
  public String line() {
    return String.format(
        Locale.ROOT,
        "RATE %s, %s: %.1f/s before; lowest %d/s; answers paused at most %.1f s; back to %.0f %%"
            + " %d s after it; %d in flight at it, %s; per second: %s",
        scenario,
        event,
        before,
        lowest(),
        longestPause.toMillis() / 1000.0,
        SHARE * 100,
        backTo90.toSeconds(),
        inFlight,
        firstInFlightAnswer == null
            ? "none of them answered"
            : String.format(
                Locale.ROOT,
                "the first of them answered %.1f s after it",
                firstInFlightAnswer.toMillis() / 1000.0),
        perSecond.stream().map(String::valueOf).collect(Collectors.joining(" ")));
  }

  /** Prints {@link #line()} and appends it to {@link FaultReport#reportFile()}. */
  public RateRecovery print() {
    System.out.println(line());
    FaultReport.appendToReportFile(line());
    return this;
  }

  /** Answers in [{@code from}, {@code to}) of the sorted {@code answers}. */
  static int count(long[] answers, long from, long to) {
    return Math.max(0, firstAtOrAfter(answers, to) - firstAtOrAfter(answers, from));
  }

  private static int firstAtOrAfter(long[] answers, long t) {
    int i = Arrays.binarySearch(answers, t);
    if (i < 0) {
      return -i - 1;
    }
    while (i > 0 && answers[i - 1] == t) {
      i--;
    }
    return i;
  }

  /** The longest gap in [{@code from}, {@code to}] that ends with an answer (or at {@code to}). */
  private static long longestPause(long[] answers, long from, long to) {
    long longest = 0;
    long last = from;
    for (int i = firstAtOrAfter(answers, from); i < answers.length && answers[i] <= to; i++) {
      longest = Math.max(longest, answers[i] - last);
      last = answers[i];
    }
    return last == from ? to - from : longest;
  }
}
