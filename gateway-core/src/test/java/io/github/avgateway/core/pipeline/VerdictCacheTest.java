package io.github.avgateway.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.VirusScanner;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The cache modes auto, true (ON) and false (OFF), decided per request under the version. */
class VerdictCacheTest {

  private static final EngineVersion V27001 = new EngineVersion("ClamAV 1.4.6", "27001");
  private static final EngineVersion V27002 = new EngineVersion("ClamAV 1.4.6", "27002");
  private static final EngineVersion CUSTOM_ONLY = new EngineVersion("ClamAV 1.4.6", "");
  private static final byte[] BODY = {1, 2, 3};

  /** Answers {@link #answer}; reports {@link #version}, which may move during a scan. */
  private static final class Scanner implements VirusScanner {
    final AtomicInteger calls = new AtomicInteger();
    volatile EngineVersion version = V27001;
    volatile EngineVersion versionAfterScan;
    volatile Verdict answer = Verdict.CLEAN;

    @Override
    public ScanReport scan(InputStream content, long declaredSize) {
      calls.incrementAndGet();
      if (versionAfterScan != null) {
        version = versionAfterScan;
      }
      return answer == Verdict.CLEAN
          ? ScanReport.clean(version, 1)
          : ScanReport.infected(List.of("Avgw-Probe"), version, 1);
    }

    @Override
    public EngineVersion version() {
      return version;
    }
  }

  private final Scanner scanner = new Scanner();
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(VerdictCache.class);

  @BeforeEach
  void captureLines() {
    lines.start();
    logger.addAppender(lines);
  }

  @AfterEach
  void releaseLines() {
    logger.detachAppender(lines);
  }

  private ScanPipeline pipeline(CacheMode mode) {
    return new ScanPipeline(
        scanner,
        VerdictCache.bounded(100, Duration.ofMinutes(5), mode),
        1000,
        Clock.systemUTC(),
        "gw");
  }

  private static ScanResult scan(ScanPipeline pipeline) {
    return pipeline.scan(
        new ScanRequest(
            "r", null, "jms", null, null, null, Instant.now(), false, ScanContent.of(BODY)));
  }

  private List<String> infoLines() {
    return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void autoCachesWhileASignatureVersionIsReportedAndSaysSoOnce() {
    ScanPipeline pipeline = pipeline(CacheMode.AUTO);

    assertThat(scan(pipeline).cached()).isFalse();
    assertThat(scan(pipeline).cached()).isTrue();
    assertThat(scan(pipeline).cached()).isTrue();

    assertThat(scanner.calls).hasValue(1);
    assertThat(infoLines()).hasSize(1);
    assertThat(infoLines().getFirst()).contains("Verdict cache in use", "27001");
  }

  @Test
  void autoNeitherConsultsNorFillsTheCacheWithoutAVersionAndSaysWhyOnce() {
    scanner.version = CUSTOM_ONLY;
    ScanPipeline pipeline = pipeline(CacheMode.AUTO);

    for (int i = 0; i < 3; i++) {
      assertThat(scan(pipeline).cached()).isFalse();
    }

    assertThat(scanner.calls).hasValue(3);
    assertThat(infoLines()).hasSize(1);
    assertThat(infoLines().getFirst())
        .contains(
            "Verdict cache not used",
            "no signature database version",
            "avgateway.pipeline.cache.enabled=true");
  }

  @Test
  void autoLogsAgainOnlyWhenTheVersionAppearsOrDisappears() {
    scanner.version = CUSTOM_ONLY;
    ScanPipeline pipeline = pipeline(CacheMode.AUTO);
    scan(pipeline);
    scanner.version = V27001;
    scan(pipeline);
    scanner.version = V27002;
    scan(pipeline);
    scanner.version = CUSTOM_ONLY;
    scan(pipeline);

    assertThat(infoLines())
        .hasSize(3)
        .satisfiesExactly(
            line -> assertThat(line).contains("not used"),
            line -> assertThat(line).contains("in use", "27001"),
            line -> assertThat(line).contains("not used"));
  }

  @Test
  void autoDoesNotCacheOrLogBeforeTheEngineAnswered() {
    scanner.version = EngineVersion.UNKNOWN;
    ScanPipeline pipeline = pipeline(CacheMode.AUTO);
    scan(pipeline);
    scan(pipeline);

    assertThat(scanner.calls).hasValue(2);
    assertThat(infoLines()).isEmpty();
  }

  @Test
  void aNewVersionIsNeverAnsweredWithAVerdictOfTheOldOne() {
    ScanPipeline pipeline = pipeline(CacheMode.AUTO);
    assertThat(scan(pipeline).verdict()).isEqualTo(Verdict.CLEAN);
    assertThat(scan(pipeline).cached()).isTrue();

    scanner.version = V27002;
    scanner.answer = Verdict.INFECTED;
    ScanResult afterReload = scan(pipeline);

    assertThat(afterReload.cached()).isFalse();
    assertThat(afterReload.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(afterReload.signatureVersion()).isEqualTo("27002");
    assertThat(scan(pipeline).cached()).isTrue();
  }

  @Test
  void aScanDuringWhichTheVersionChangedIsNotKept() {
    ScanPipeline pipeline = pipeline(CacheMode.AUTO);
    scanner.versionAfterScan = V27002;
    scan(pipeline);
    scanner.versionAfterScan = null;

    assertThat(scan(pipeline).cached()).isFalse();
    assertThat(scanner.calls).hasValue(2);
  }

  @Test
  void onCachesEvenWithoutAVersionAndLogsNothing() {
    scanner.version = CUSTOM_ONLY;
    ScanPipeline pipeline = pipeline(CacheMode.ON);
    scan(pipeline);

    assertThat(scan(pipeline).cached()).isTrue();
    assertThat(scanner.calls).hasValue(1);
    assertThat(infoLines()).isEmpty();
  }

  @Test
  void offScansEveryTimeEvenWithAVersion() {
    ScanPipeline pipeline = pipeline(CacheMode.OFF);
    scan(pipeline);

    assertThat(scan(pipeline).cached()).isFalse();
    assertThat(scanner.calls).hasValue(2);
    assertThat(infoLines()).isEmpty();
  }
}
