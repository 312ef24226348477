package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.Availability;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Scans against the project's clamd (scripts/services.sh start clamd). */
class ClamdScannerIT {

  private static final long LIMIT = 20L * 1024 * 1024;
  private static ClamdScanner scanner;

  @BeforeAll
  static void start() {
    ItEnv.requireSharedClamd();
    scanner = ClamdScanner.start(ItEnv.settings(ItEnv.sharedClamd()).maxSizeBytes(LIMIT).build());
  }

  @AfterAll
  static void stop() {
    scanner.close();
  }

  private static ScanReport scanStream(byte[] payload) {
    return scanner.scan(new ByteArrayInputStream(payload), payload.length);
  }

  @Test
  void eicarIsInfected() {
    ScanReport report = scanStream(SelfTestProbes.eicar());
    assertThat(report.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(report.signatures()).containsExactly("Eicar-Test-Signature.UNOFFICIAL");
    assertThat(scanner.scan(ScanContent.of(SelfTestProbes.eicar())).verdict())
        .isEqualTo(Verdict.INFECTED);
  }

  @Test
  void theDebianTestFilesAreAllThere() throws IOException {
    assertThat(ItEnv.clamavTestFiles()).hasSize(44);
  }

  static List<Path> testFiles() throws IOException {
    return ItEnv.clamavTestFiles();
  }

  /**
   * Every test file is INFECTED, clam_cache_emax.tgz included: it holds clam.exe 17 to 19 archive
   * layers deep, within the project's MaxRecursion of 17 (ClamAV's default).
   */
  @ParameterizedTest
  @MethodSource("testFiles")
  void everyClamavTestFileIsInfected(Path file) throws IOException {
    ScanReport report = scanner.scan(ScanContent.of(file));
    assertThat(report.verdict()).as(file + ": " + report).isEqualTo(Verdict.INFECTED);
    assertThat(report.signatures()).containsExactly("ClamAV-Test-File.UNOFFICIAL");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1024, 10 * 1024 * 1024})
  void randomFilesAreClean(int size) {
    byte[] payload = ItEnv.randomBytes(size, size);
    ScanReport declared = scanStream(payload);
    assertThat(declared.verdict()).as(declared.toString()).isEqualTo(Verdict.CLEAN);
    assertThat(declared.engine().engine()).startsWith("ClamAV ");
    ScanReport undeclared =
        scanner.scan(new ByteArrayInputStream(payload), ScanContent.UNKNOWN_SIZE);
    assertThat(undeclared.verdict()).isEqualTo(Verdict.CLEAN);
    assertThat(scanner.scan(ScanContent.of(payload)).verdict()).isEqualTo(Verdict.CLEAN);
  }

  @Test
  void eicarInsideAZipIsInfected() {
    ScanReport report = scanStream(SelfTestProbes.zip("readme.com", SelfTestProbes.eicar()));
    assertThat(report.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(report.signatures()).containsExactly("Eicar-Test-Signature.UNOFFICIAL");
  }

  @Test
  void anEncryptedZipIsUnscannable() {
    ScanReport report = scanStream(SelfTestProbes.encryptedZip());
    assertThat(report.verdict()).isEqualTo(Verdict.UNSCANNABLE);
    assertThat(report.reason()).isEqualTo(Reason.ENCRYPTED);
    assertThat(report.detail()).contains("Heuristics.Encrypted.Zip");
  }

  @Test
  void anArchiveNestedDeeperThanClamdsLimitIsUnscannable() {
    ScanReport report = scanStream(SelfTestProbes.nestedEicar(SelfTestProbes.NESTING_DEPTH));
    assertThat(report.verdict()).isEqualTo(Verdict.UNSCANNABLE);
    assertThat(report.reason()).isEqualTo(Reason.LIMITS_EXCEEDED);
    assertThat(report.detail()).contains("Heuristics.Limits.Exceeded.MaxRecursion");
  }

  @Test
  void aDeclaredSizeOverTheLimitIsTooLargeWithoutReadingAByte() {
    CountingStream payload = new CountingStream(new ByteArrayInputStream(new byte[16]));
    ScanReport report = scanner.scan(payload, LIMIT + 1);
    assertThat(report.verdict()).isEqualTo(Verdict.UNSCANNABLE);
    assertThat(report.reason()).isEqualTo(Reason.TOO_LARGE);
    assertThat(report.detail()).contains("nothing was sent to clamd");
    assertThat(payload.bytesRead).isZero();
  }

  @Test
  void anUndeclaredSizeOverTheLimitIsCutAndTooLarge() {
    byte[] oversized = new byte[(int) LIMIT + 1];
    CountingStream payload = new CountingStream(new ByteArrayInputStream(oversized));
    ScanReport report = scanner.scan(payload, ScanContent.UNKNOWN_SIZE);
    assertThat(report.verdict()).isEqualTo(Verdict.UNSCANNABLE);
    assertThat(report.reason()).isEqualTo(Reason.TOO_LARGE);
    assertThat(payload.bytesRead).isLessThanOrEqualTo(LIMIT + 64 * 1024);
    assertThat(scanStream(SelfTestProbes.eicar()).verdict())
        .as("the pool still works after an abandoned stream")
        .isEqualTo(Verdict.INFECTED);
  }

  @Test
  void theEngineVersionComesFromClamd() {
    scanStream(new byte[1]);
    assertThat(scanner.version().engine()).matches("ClamAV \\d+\\.\\d+\\.\\d+");
    assertThat(scanner.version().signatureVersion())
        .as("custom signatures only: clamd reports no database version")
        .isEmpty();
    assertThat(scanner.availability()).isEqualTo(Availability.up());
  }

  /** Counts the bytes taken from the payload. */
  static final class CountingStream extends FilterInputStream {
    long bytesRead;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      bytesRead += b < 0 ? 0 : 1;
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      bytesRead += Math.max(n, 0);
      return n;
    }
  }
}
