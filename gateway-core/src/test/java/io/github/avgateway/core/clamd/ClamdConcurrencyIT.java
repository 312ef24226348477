package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Many threads share one pool: every scan gets its own payload's verdict. */
class ClamdConcurrencyIT {

  private record Case(String name, byte[] payload, Verdict verdict, Reason reason) {}

  private static final int THREADS = 8;
  private static final int SCANS_PER_THREAD = 500;

  @Test
  void eightThreadsTimesFiveHundredMixedScansThroughOnePoolAreAllRight() throws Exception {
    ItEnv.requireSharedClamd();
    List<Case> cases = cases();
    try (ClamdScanner scanner =
            ClamdScanner.start(ItEnv.settings(ItEnv.sharedClamd()).poolSize(4).build());
        ExecutorService threads = Executors.newFixedThreadPool(THREADS)) {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        results.add(threads.submit(() -> scanMany(scanner, cases, thread)));
      }
      List<String> wrong = new ArrayList<>();
      for (Future<List<String>> result : results) {
        wrong.addAll(result.get());
      }
      assertThat(wrong).isEmpty();
    }
  }

  private static List<String> scanMany(ClamdScanner scanner, List<Case> cases, int thread) {
    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < SCANS_PER_THREAD; i++) {
      Case c = cases.get((i + thread) % cases.size());
      byte[] payload =
          c.name().equals("unique clean")
              ? ItEnv.randomBytes(1024, thread * 1000L + i)
              : c.payload();
      ScanReport report =
          i % 2 == 0
              ? scanner.scan(new ByteArrayInputStream(payload), payload.length)
              : scanner.scan(ScanContent.of(payload));
      if (report.verdict() != c.verdict() || report.reason() != c.reason()) {
        wrong.add(c.name() + " #" + i + " on thread " + thread + ": " + report);
      }
    }
    return wrong;
  }

  private static List<Case> cases() throws Exception {
    byte[] clamExe = Files.readAllBytes(Path.of("/usr/share/clamav-testfiles/clam.exe"));
    byte[] eicar = SelfTestProbes.eicar();
    return List.of(
        new Case("unique clean", null, Verdict.CLEAN, null),
        new Case("EICAR", eicar, Verdict.INFECTED, null),
        new Case("clean 64 KiB", ItEnv.randomBytes(64 * 1024 + 1, 7), Verdict.CLEAN, null),
        new Case("clam.exe", clamExe, Verdict.INFECTED, null),
        new Case("EICAR zip", SelfTestProbes.zip("e.com", eicar), Verdict.INFECTED, null),
        new Case("empty", new byte[0], Verdict.CLEAN, null),
        new Case(
            "encrypted zip", SelfTestProbes.encryptedZip(), Verdict.UNSCANNABLE, Reason.ENCRYPTED),
        new Case(
            "nested zips",
            SelfTestProbes.nestedEicar(SelfTestProbes.NESTING_DEPTH),
            Verdict.UNSCANNABLE,
            Reason.LIMITS_EXCEEDED));
  }
}
