package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * All 44 files of Debian's clamav-testfiles are INFECTED, on a private clamd with the project's
 * settings except ClamAV's default MaxRecursion of 17, which one of them (a test of scan limits)
 * needs.
 */
class ClamdTestFilesIT {

  static final String DEEPLY_NESTED = "clam_cache_emax.tgz";

  @Test
  void allFortyFourTestFilesAreInfected() throws Exception {
    List<Path> files = ItEnv.clamavTestFiles();
    assertThat(files).hasSize(44).anyMatch(f -> f.getFileName().toString().equals(DEEPLY_NESTED));
    try (PrivateClamd clamd = PrivateClamd.start(Map.of("MaxRecursion", "17"));
        ClamdScanner scanner = ClamdScanner.start(ItEnv.settings(clamd.endpoint()).build())) {
      for (Path file : files) {
        ScanReport report = scanner.scan(ScanContent.of(file));
        assertThat(report.verdict()).as(file + ": " + report).isEqualTo(Verdict.INFECTED);
        assertThat(report.signatures()).containsExactly("ClamAV-Test-File.UNOFFICIAL");
      }
      assertThat(scanner.scan(ScanContent.of(SelfTestProbes.nestedEicar(20))).verdict())
          .as("the self-test's nesting probe still passes MaxRecursion 17")
          .isEqualTo(Verdict.UNSCANNABLE);
    }
  }
}
