package io.github.avgateway.solr;

import io.github.avgateway.core.model.Verdict;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * The counts of one slot (or of the slots of an hour added up): documents per verdict and per
 * signature. Stored in a rollup document as two strings ({@link #verdictText()}, {@link
 * #signatureText()}) that read back to the same counts.
 *
 * @param verdicts documents per verdict (absent: none)
 * @param signatures documents per signature (absent: none)
 */
record SlotCounts(Map<Verdict, Long> verdicts, Map<String, Long> signatures) {

  static SlotCounts empty() {
    return new SlotCounts(new EnumMap<>(Verdict.class), new HashMap<>());
  }

  /** Adds {@code other} into this (whose maps must be mutable). */
  void add(SlotCounts other) {
    other.verdicts.forEach((v, n) -> verdicts.merge(v, n, Long::sum));
    other.signatures.forEach((s, n) -> signatures.merge(s, n, Long::sum));
  }

  /** The verdict counts in the order of {@link Verdict#values()}, space separated. */
  String verdictText() {
    StringBuilder text = new StringBuilder();
    for (Verdict verdict : Verdict.values()) {
      if (!text.isEmpty()) {
        text.append(' ');
      }
      text.append(verdicts.getOrDefault(verdict, 0L));
    }
    return text.toString();
  }

  /** One {@code "count signature"} line per signature (signature names hold no line breaks). */
  String signatureText() {
    StringBuilder text = new StringBuilder();
    signatures.forEach((name, n) -> text.append(n).append(' ').append(name).append('\n'));
    return text.toString();
  }

  /** The counts stored as {@link #verdictText()} and {@link #signatureText()}. */
  static SlotCounts parse(String verdictText, String signatureText) {
    SlotCounts counts = empty();
    if (verdictText != null && !verdictText.isBlank()) {
      String[] numbers = verdictText.strip().split(" ");
      Verdict[] verdicts = Verdict.values();
      for (int i = 0; i < Math.min(numbers.length, verdicts.length); i++) {
        long n = Long.parseLong(numbers[i]);
        if (n > 0) {
          counts.verdicts.put(verdicts[i], n);
        }
      }
    }
    if (signatureText != null) {
      for (String line : signatureText.split("\n")) {
        int space = line.indexOf(' ');
        if (space > 0) {
          counts.signatures.merge(
              line.substring(space + 1), Long.parseLong(line.substring(0, space)), Long::sum);
        }
      }
    }
    return counts;
  }
}
