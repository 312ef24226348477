package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.pipeline.CacheMode;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.pipeline.VerdictCache;
import io.github.avgateway.core.testing.PrivateClamd;
import io.github.avgateway.core.testing.UnsignedDailyDatabase;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The verdict cache across real signature reloads of a private clamd. The clamd reports a database
 * version offline from a hand-built unsigned {@code daily.cud} ({@link UnsignedDailyDatabase}), so
 * the reload changes both the signatures and the version clamd reports, as a freshclam update does.
 */
class VerdictCacheReloadIT {

  /** CLEAN under the project's signatures and under database 27001; INFECTED under 27002. */
  private static final byte[] PROBE =
      "av-gateway verdict cache reload probe\n".getBytes(StandardCharsets.US_ASCII);

  private static final String EICAR_HDB =
      "44d88612fea8a8f36de82e1278abb02f:68:Eicar-Test-Signature\n";
  private static final Duration VERSION_REFRESH = Duration.ofMillis(200);

  @Test
  void autoNeverAnswersACleanOfTheOldDatabaseOnceTheNewVersionIsSeen() throws Exception {
    try (PrivateClamd clamd = PrivateClamd.start(Map.of());
        ClamdScanner scanner = ClamdScanner.start(settings(clamd))) {
      ScanPipeline pipeline = pipeline(scanner, CacheMode.AUTO);

      // clamd with custom signatures only reports no version: auto neither reads nor fills the
      // cache.
      assertThat(scan(pipeline)).satisfies(r -> assertThat(r.cached()).isFalse());
      assertThat(scan(pipeline)).satisfies(r -> assertThat(r.cached()).isFalse());
      assertThat(scanner.version().signatureVersion()).isEmpty();

      reload(clamd, scanner, database(27001, EICAR_HDB), "27001");
      ScanResult first = scan(pipeline);
      ScanResult second = scan(pipeline);
      assertThat(first.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(first.cached()).isFalse();
      assertThat(second.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(second.cached()).as("the cache is in use under 27001").isTrue();

      clamd.installDatabase(
          UnsignedDailyDatabase.FILE_NAME, database(27002, EICAR_HDB + probeSignature()));
      assertThat(clamd.reload()).isEqualTo("RELOADING");
      List<ScanResult> duringReload = new ArrayList<>();
      ScanResult infected = scanUntilInfected(pipeline, duringReload);

      assertThat(duringReload)
          .as("every CLEAN answered while the reload took effect is one of database 27001")
          .allSatisfy(r -> {
            assertThat(r.verdict()).isEqualTo(Verdict.CLEAN);
            assertThat(r.signatureVersion()).isEqualTo("27001");
          });
      assertThat(infected.cached()).as("answered by a real scan").isFalse();
      assertThat(infected.signatureVersion()).isEqualTo("27002");
      assertThat(infected.signatures()).singleElement().asString().startsWith("Avgw-Cache-Probe");
      ScanResult again = scan(pipeline);
      assertThat(again.verdict()).isEqualTo(Verdict.INFECTED);
      assertThat(again.cached()).as("the cache is in use under 27002").isTrue();

      clamd.installDatabase(UnsignedDailyDatabase.FILE_NAME, null);
      assertThat(clamd.reload()).isEqualTo("RELOADING");
      await("the version disappears")
          .atMost(Duration.ofSeconds(60))
          .until(() -> scanner.version().signatureVersion().isEmpty());
      assertThat(scan(pipeline))
          .satisfies(r -> {
            assertThat(r.verdict()).isEqualTo(Verdict.CLEAN);
            assertThat(r.cached()).as("no version again: the cache is not consulted").isFalse();
          });
    }
  }

  /**
   * What {@code avgateway.pipeline.cache.enabled=true} documents: without a reported version a
   * reload of custom signatures changes no key, so a cached CLEAN is still answered until its TTL.
   */
  @Test
  void trueKeepsAnsweringACachedCleanAcrossAReloadThatChangesNoVersion() throws Exception {
    try (PrivateClamd clamd = PrivateClamd.start(Map.of());
        ClamdScanner scanner = ClamdScanner.start(settings(clamd))) {
      ScanPipeline pipeline = pipeline(scanner, CacheMode.ON);
      assertThat(scan(pipeline).verdict()).isEqualTo(Verdict.CLEAN);

      clamd.installDatabase(
          "avgw-cache-probe.hdb", probeSignature().getBytes(StandardCharsets.US_ASCII));
      assertThat(clamd.reload()).isEqualTo("RELOADING");
      await("clamd detects the probe after the reload")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> scanner.scan(ScanContent.of(PROBE)).verdict() == Verdict.INFECTED);

      ScanResult stale = scan(pipeline);
      assertThat(stale.verdict()).isEqualTo(Verdict.CLEAN);
      assertThat(stale.cached()).isTrue();
      assertThat(scanner.version().signatureVersion()).isEmpty();
    }
  }

  private static ClamdSettings settings(PrivateClamd clamd) {
    return ItEnv.settings(clamd.endpoint()).versionRefresh(VERSION_REFRESH).build();
  }

  private static ScanPipeline pipeline(ClamdScanner scanner, CacheMode mode) {
    return new ScanPipeline(
        scanner,
        VerdictCache.bounded(1000, Duration.ofMinutes(10), mode),
        1 << 20,
        Clock.systemUTC(),
        "cache-it");
  }

  private static ScanResult scan(ScanPipeline pipeline) {
    return pipeline.scan(
        new ScanRequest(
            "probe", null, "jms", null, null, null, Instant.now(), false, ScanContent.of(PROBE)));
  }

  /** Scans the probe every 20 ms until it is INFECTED (at most 60 s); earlier results kept. */
  private static ScanResult scanUntilInfected(ScanPipeline pipeline, List<ScanResult> before) {
    return await("the probe INFECTED within 60 s of the reload")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(20))
        .until(
            () -> {
              ScanResult result = scan(pipeline);
              if (result.verdict() != Verdict.INFECTED) {
                before.add(result);
              }
              return result;
            },
            result -> result.verdict() == Verdict.INFECTED);
  }

  private static void reload(PrivateClamd clamd, ClamdScanner scanner, byte[] daily, String version)
      throws Exception {
    clamd.installDatabase(UnsignedDailyDatabase.FILE_NAME, daily);
    assertThat(clamd.reload()).isEqualTo("RELOADING");
    await("clamd reports database " + version + " and the scanner sees it")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> scanner.version().signatureVersion().equals(version));
    assertThat(clamd.command("VERSION", Duration.ofSeconds(5)))
        .startsWith(scanner.version().engine() + "/" + version + "/");
  }

  private static byte[] database(int version, String hdb) {
    return UnsignedDailyDatabase.of(version, Instant.now(), Map.of("daily.hdb", hdb));
  }

  private static String probeSignature() throws Exception {
    String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(PROBE));
    return md5 + ":" + PROBE.length + ":Avgw-Cache-Probe\n";
  }
}
