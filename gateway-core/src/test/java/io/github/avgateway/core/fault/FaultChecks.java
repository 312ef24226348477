package io.github.avgateway.core.fault;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The checks behind {@link FaultLedger#report()}, one method per count. */
final class FaultChecks {

  private FaultChecks() {}

  static FaultReport report(
      String scenario,
      Duration elapsed,
      List<FaultLedger.Entry> entries,
      int strayOutcomes,
      int strayDocs,
      int seenAgain) {
    return new FaultReport(
        scenario,
        elapsed,
        entries.size(),
        count(entries, e -> e.confirmed),
        count(entries, e -> e.outcomes.stream().anyMatch(Outcome.Reply.class::isInstance)),
        count(entries, e -> e.outcomes.stream().anyMatch(Outcome.DeadLetter.class::isInstance)),
        count(entries, e -> e.confirmed && e.outcomes.isEmpty()),
        entries.stream().mapToInt(e -> Math.max(0, e.outcomes.size() - 1)).sum(),
        count(entries, e -> e.outcomes.size() > 1 && !redelivered(e)),
        count(entries, FaultChecks::unsafe),
        count(entries, FaultChecks::inconsistent),
        count(entries, e -> e.needsHistory() && e.docs.isEmpty()),
        entries.stream().mapToInt(e -> Math.max(0, e.docs.size() - 1)).sum() + strayDocs,
        count(entries, FaultChecks::unexpected),
        strayOutcomes,
        seenAgain,
        entries.stream()
            .filter(FaultChecks::unexpected)
            .limit(MAX_DESCRIBED)
            .map(FaultChecks::describe)
            .toList());
  }

  /** How many unexpected answers a report names. */
  static final int MAX_DESCRIBED = 5;

  private static boolean unexpected(FaultLedger.Entry e) {
    return !e.outcomes.isEmpty() && !e.expected.matches(e.outcomes.get(0));
  }

  /** One request: what was expected, what came, and what its history documents say. */
  private static String describe(FaultLedger.Entry e) {
    StringBuilder text =
        new StringBuilder(e.key)
            .append(": expected ")
            .append(e.expected)
            .append(", answered ")
            .append(e.outcomes);
    for (MessageInfo doc : e.docs.values()) {
      text.append("; history ")
          .append(doc.verdict())
          .append(doc.reason() == null ? "" : " " + doc.reason())
          .append(" received ")
          .append(doc.receivedAt())
          .append(" scanned ")
          .append(doc.scannedAt())
          .append(" in ")
          .append(doc.scanMillis())
          .append(" ms")
          .append(doc.redelivered() ? " redelivered" : "");
    }
    return text.toString();
  }

  /** An EICAR-bearing request answered or recorded CLEAN anywhere. */
  private static boolean unsafe(FaultLedger.Entry e) {
    return e.expected.eicarBearing() && verdicts(e).contains(Verdict.CLEAN);
  }

  /** A request that got (or was recorded with) more than one verdict. */
  private static boolean inconsistent(FaultLedger.Entry e) {
    return verdicts(e).size() > 1;
  }

  /**
   * The first few requests answered more than once whose history shows no redelivery, each with
   * what was expected, what came and what its history documents say: what a failed {@code
   * EXPLAINED_BY_REDELIVERY} check needs to be looked into.
   */
  static List<String> unexplainedRepeats(List<FaultLedger.Entry> entries) {
    return entries.stream()
        .filter(e -> e.outcomes.size() > 1 && !redelivered(e))
        .limit(MAX_DESCRIBED)
        .map(FaultChecks::describe)
        .toList();
  }

  /** A request handled more than once that history shows as redelivered. */
  private static boolean redelivered(FaultLedger.Entry e) {
    return e.docs.values().stream().anyMatch(MessageInfo::redelivered);
  }

  private static Set<Verdict> verdicts(FaultLedger.Entry e) {
    Set<Verdict> verdicts = EnumSet.noneOf(Verdict.class);
    e.outcomes.stream().map(Outcome::verdict).filter(Objects::nonNull).forEach(verdicts::add);
    e.docs.values().forEach(doc -> verdicts.add(doc.verdict()));
    return verdicts;
  }

  private static int count(
      List<FaultLedger.Entry> entries, java.util.function.Predicate<FaultLedger.Entry> test) {
    return (int) entries.stream().filter(test).count();
  }
}
