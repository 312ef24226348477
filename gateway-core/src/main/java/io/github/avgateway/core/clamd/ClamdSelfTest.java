package io.github.avgateway.core.clamd;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.VirusScanner;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Checks that clamd fails closed, by scanning probes built at run time: EICAR must be INFECTED (the
 * signatures work), an encrypted zip must be UNSCANNABLE ENCRYPTED (AlertEncrypted), and EICAR
 * under {@value SelfTestProbes#NESTING_DEPTH} nested zips must be UNSCANNABLE LIMITS_EXCEEDED
 * (AlertExceedsMax with MaxRecursion below that depth). A clamd that answers CLEAN to any of them
 * would let content through that it never looked at.
 */
public final class ClamdSelfTest {

  private record Probe(
      String name, byte[] payload, Verdict verdict, Reason reason, String advice) {}

  private final VirusScanner scanner;

  public ClamdSelfTest(VirusScanner scanner) {
    this.scanner = Objects.requireNonNull(scanner, "scanner");
  }

  /**
   * Scans every probe. Up when all were answered as expected; otherwise DOWN with one sentence per
   * failed probe, saying what clamd answered and which setting to fix. When clamd cannot scan at
   * all, DOWN says that and stops there.
   */
  public Availability run() {
    List<String> problems = new ArrayList<>();
    for (Probe probe : probes()) {
      ScanReport report = scan(probe.payload());
      if (report.verdict() == Verdict.ERROR) {
        return Availability.down("clamd cannot scan the " + probe.name() + ": " + report.detail());
      }
      if (report.verdict() != probe.verdict() || report.reason() != probe.reason()) {
        problems.add(problem(probe, report));
      }
    }
    return problems.isEmpty() ? Availability.up() : Availability.down(String.join("; ", problems));
  }

  private ScanReport scan(byte[] payload) {
    return scanner.scan(new ByteArrayInputStream(payload), payload.length);
  }

  private static List<Probe> probes() {
    return List.of(
        new Probe(
            "EICAR test file",
            SelfTestProbes.eicar(),
            Verdict.INFECTED,
            null,
            "clamd does not detect the EICAR test file: check that its signature database loads"),
        new Probe(
            "encrypted zip",
            SelfTestProbes.encryptedZip(),
            Verdict.UNSCANNABLE,
            Reason.ENCRYPTED,
            "clamd does not alert on encrypted archives: set AlertEncrypted yes"),
        new Probe(
            "EICAR under " + SelfTestProbes.NESTING_DEPTH + " nested zips",
            SelfTestProbes.nestedEicar(SelfTestProbes.NESTING_DEPTH),
            Verdict.UNSCANNABLE,
            Reason.LIMITS_EXCEEDED,
            "clamd does not alert when an archive exceeds its limits: set AlertExceedsMax yes"
                + " and keep MaxRecursion below "
                + SelfTestProbes.NESTING_DEPTH));
  }

  private static String problem(Probe probe, ScanReport report) {
    String expected = probe.verdict() + (probe.reason() == null ? "" : " " + probe.reason());
    String got =
        report.verdict()
            + (report.reason() == null ? "" : " " + report.reason())
            + (report.signatures().isEmpty() ? "" : " " + report.signatures())
            + (report.detail() == null ? "" : " (" + report.detail() + ")");
    return probe.advice()
        + " (the "
        + probe.name()
        + " was "
        + got
        + ", expected "
        + expected
        + ")";
  }
}
