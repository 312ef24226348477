package io.github.avgateway.core.model;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link io.github.avgateway.core.port.VirusScanner} found in one payload. The constructor
 * enforces the verdict rules: CLEAN has no signatures and no reason, INFECTED has at least one
 * signature, UNSCANNABLE and ERROR carry a reason of their own kind.
 *
 * @param verdict the verdict
 * @param signatures signature names, in clamd's order; empty unless INFECTED
 * @param reason why UNSCANNABLE or ERROR; null otherwise
 * @param detail clamd's own words (e.g. {@code Heuristics.Encrypted.Zip}) or the error; may be null
 * @param engine engine and signature version that produced the verdict
 * @param scanMillis time spent on the scan, transfer included
 */
public record ScanReport(
    Verdict verdict,
    List<String> signatures,
    Reason reason,
    String detail,
    EngineVersion engine,
    long scanMillis) {

  public ScanReport {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(engine, "engine");
    signatures = List.copyOf(signatures);
    switch (verdict) {
      case CLEAN ->
          require(signatures.isEmpty() && reason == null, "CLEAN has no signature or reason");
      case INFECTED ->
          require(!signatures.isEmpty() && reason == null, "INFECTED needs a signature");
      case UNSCANNABLE, ERROR ->
          require(
              signatures.isEmpty() && reason != null && reason.verdict() == verdict,
              verdict + " needs a reason of its kind, got " + reason);
    }
  }

  public static ScanReport clean(EngineVersion engine, long scanMillis) {
    return new ScanReport(Verdict.CLEAN, List.of(), null, null, engine, scanMillis);
  }

  public static ScanReport infected(
      List<String> signatures, EngineVersion engine, long scanMillis) {
    return new ScanReport(Verdict.INFECTED, signatures, null, null, engine, scanMillis);
  }

  /** UNSCANNABLE or ERROR, whichever the reason belongs to. */
  public static ScanReport notClean(
      Reason reason, String detail, EngineVersion engine, long scanMillis) {
    return new ScanReport(reason.verdict(), List.of(), reason, detail, engine, scanMillis);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }
}
