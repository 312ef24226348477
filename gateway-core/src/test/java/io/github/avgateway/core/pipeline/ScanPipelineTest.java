package io.github.avgateway.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.pipe.PipeOutlet;
import io.github.avgateway.core.port.VirusScanner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ScanPipelineTest {

  private static final EngineVersion ENGINE = new EngineVersion("ClamAV 1.4.6", "27451");
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-22T10:00:00Z"), ZoneOffset.UTC);

  /** Reads a given number of bytes (all by default), then answers what it is told. */
  private static final class FakeScanner implements VirusScanner {
    final AtomicInteger calls = new AtomicInteger();
    long bytesRead;
    int readLimit = Integer.MAX_VALUE;
    ScanReport answer = ScanReport.clean(ENGINE, 3);

    @Override
    public ScanReport scan(InputStream content, long declaredSize) {
      calls.incrementAndGet();
      try {
        byte[] buffer = new byte[16];
        int n;
        while (bytesRead < readLimit
            && (n = content.read(buffer, 0, (int) Math.min(16, readLimit - bytesRead))) >= 0) {
          bytesRead += n;
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      return answer;
    }

    @Override
    public EngineVersion version() {
      return ENGINE;
    }
  }

  private final FakeScanner scanner = new FakeScanner();

  private ScanPipeline pipeline(VerdictCache cache, long max) {
    return new ScanPipeline(scanner, cache, max, CLOCK, "gw-1");
  }

  private static ScanRequest request(String id, String correlationId, byte[] body) {
    return new ScanRequest(
        id,
        correlationId,
        "jms",
        "a.txt",
        "svc",
        null,
        CLOCK.instant().minusMillis(250),
        false,
        ScanContent.of(body));
  }

  private static String sha256(byte[] body) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
  }

  @Test
  void cleanResultCarriesHashSizeEngineAndCorrelation() throws Exception {
    byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
    ScanResult result = pipeline(VerdictCache.disabled(), 100).scan(request("m1", "c1", body));

    assertThat(result.verdict()).isEqualTo(Verdict.CLEAN);
    assertThat(result.requestId()).isEqualTo("m1");
    assertThat(result.correlationId()).isEqualTo("c1");
    assertThat(result.sha256()).isEqualTo(sha256(body));
    assertThat(result.sizeBytes()).isEqualTo(5);
    assertThat(result.engine()).isEqualTo("ClamAV 1.4.6");
    assertThat(result.signatureVersion()).isEqualTo("27451");
    assertThat(result.cached()).isFalse();
    assertThat(result.gateway()).isEqualTo("gw-1");
  }

  @Test
  void correlationIdFallsBackToRequestId() {
    ScanResult result =
        pipeline(VerdictCache.disabled(), 100).scan(request("m2", null, new byte[0]));
    assertThat(result.correlationId()).isEqualTo("m2");
  }

  @Test
  void overLimitIsTooLargeWithoutCallingTheScanner() {
    ScanResult result = pipeline(VerdictCache.disabled(), 4).scan(request("m3", null, new byte[5]));

    assertThat(result.verdict()).isEqualTo(Verdict.UNSCANNABLE);
    assertThat(result.reason()).isEqualTo(Reason.TOO_LARGE);
    assertThat(result.sha256()).isNull();
    assertThat(scanner.calls).hasValue(0);
  }

  @Test
  void hashCoversWholeContentEvenWhenScannerStopsEarly() throws Exception {
    byte[] body = new byte[100];
    body[99] = 7;
    scanner.readLimit = 10;
    scanner.answer = ScanReport.notClean(Reason.SCAN_FAILED, "connection reset", ENGINE, 1);

    ScanResult result = pipeline(VerdictCache.disabled(), 1000).scan(request("m4", null, body));

    assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(result.sha256()).isEqualTo(sha256(body));
    assertThat(result.sizeBytes()).isEqualTo(100);
  }

  /** Reads part of the content, then opens it again and reads all of it: a retried send. */
  private static final class RetryingScanner implements VirusScanner {
    final AtomicInteger opens = new AtomicInteger();

    @Override
    public ScanReport scan(InputStream content, long declaredSize) {
      throw new AssertionError("the pipeline hands over content that can be opened again");
    }

    @Override
    public ScanReport scan(ScanContent content) {
      try {
        try (InputStream first = content.open()) {
          opens.incrementAndGet();
          first.readNBytes(3);
        }
        try (InputStream second = content.open()) {
          opens.incrementAndGet();
          second.readAllBytes();
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      return ScanReport.clean(ENGINE, 1);
    }

    @Override
    public EngineVersion version() {
      return ENGINE;
    }
  }

  @Test
  void aContentSentAgainIsHashedOnceFromItsFirstByte() throws Exception {
    RetryingScanner retrying = new RetryingScanner();
    byte[] body = "sent twice, hashed once".getBytes(StandardCharsets.UTF_8);
    ScanResult result =
        new ScanPipeline(retrying, VerdictCache.disabled(), 100, CLOCK, "gw-1")
            .scan(request("m9", null, body));

    assertThat(retrying.opens.get()).isEqualTo(2);
    assertThat(result.sha256()).isEqualTo(sha256(body));
    assertThat(result.sizeBytes()).isEqualTo(body.length);
  }

  @Test
  void aContentTheScannerNeverReadIsStillHashedWhole() throws Exception {
    VirusScanner unreachable =
        new VirusScanner() {
          @Override
          public ScanReport scan(InputStream content, long declaredSize) {
            throw new AssertionError("not called");
          }

          @Override
          public ScanReport scan(ScanContent content) {
            return ScanReport.notClean(Reason.SCAN_FAILED, "no clamd endpoint is up", ENGINE, 0);
          }

          @Override
          public EngineVersion version() {
            return ENGINE;
          }
        };
    byte[] body = "never sent".getBytes(StandardCharsets.UTF_8);
    ScanResult result =
        new ScanPipeline(unreachable, VerdictCache.disabled(), 100, CLOCK, "gw-1")
            .scan(request("m10", null, body));

    assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(result.sha256()).isEqualTo(sha256(body));
    assertThat(result.sizeBytes()).isEqualTo(body.length);
  }

  @Test
  void cacheAnswersIdenticalContentWithoutScanningAgain() {
    ScanPipeline pipeline =
        pipeline(VerdictCache.bounded(100, Duration.ofMinutes(5), CacheMode.ON), 1000);
    byte[] body = "same bytes".getBytes(StandardCharsets.UTF_8);
    scanner.answer = ScanReport.infected(List.of("Eicar-Test-Signature"), ENGINE, 4);

    ScanResult first = pipeline.scan(request("a", null, body));
    ScanResult second = pipeline.scan(request("b", null, body));

    assertThat(scanner.calls).hasValue(1);
    assertThat(first.cached()).isFalse();
    assertThat(second.cached()).isTrue();
    assertThat(second.verdict()).isEqualTo(Verdict.INFECTED);
    assertThat(second.signatures()).containsExactly("Eicar-Test-Signature");
    assertThat(second.requestId()).isEqualTo("b");
  }

  @Test
  void cacheNeverKeepsErrorsOrUnscannable() {
    ScanPipeline pipeline =
        pipeline(VerdictCache.bounded(100, Duration.ofMinutes(5), CacheMode.ON), 1000);
    scanner.answer = ScanReport.notClean(Reason.LIMITS_EXCEEDED, "MaxRecursion", ENGINE, 2);
    byte[] body = {1, 2, 3};

    pipeline.scan(request("a", null, body));
    ScanResult again = pipeline.scan(request("b", null, body));

    assertThat(scanner.calls).hasValue(2);
    assertThat(again.cached()).isFalse();
  }

  @Test
  void unreadableBodyIsAnErrorNotClean() {
    ScanContent broken =
        new ScanContent() {
          @Override
          public long size() {
            return 10;
          }

          @Override
          public InputStream open() throws IOException {
            throw new IOException("gone");
          }
        };
    ScanRequest request =
        new ScanRequest("m5", null, "amqp", null, null, null, CLOCK.instant(), false, broken);

    ScanResult result = pipeline(VerdictCache.disabled(), 100).scan(request);

    assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(result.reason()).isEqualTo(Reason.SCAN_FAILED);
  }

  @Test
  void historyDocumentsDescribeRequestOutcomeAndTiming() {
    ScanPipeline pipeline = pipeline(VerdictCache.disabled(), 100);
    ScanRequest request = request("m6", "c6", new byte[3]);
    ScanResult result = pipeline.scan(request);

    MessageInfo replied = pipeline.replied(request, result);
    MessageInfo dead = pipeline.deadLettered(request, result, DeadLetterReason.REPLY_UNROUTABLE);

    assertThat(replied.id()).isEqualTo("jms:m6").isEqualTo(dead.id());
    assertThat(replied.disposition()).isEqualTo(Disposition.REPLIED);
    assertThat(replied.totalMillis()).isEqualTo(250);
    assertThat(replied.filename()).isEqualTo("a.txt");
    assertThat(replied.clientId()).isEqualTo("svc");
    assertThat(dead.disposition()).isEqualTo(Disposition.DEAD_LETTERED);
    assertThat(dead.deadLetterReason()).isEqualTo(DeadLetterReason.REPLY_UNROUTABLE);
  }

  @Test
  void forwardedDocumentCarriesTheOutletAsDisposition() {
    ScanPipeline pipeline = pipeline(VerdictCache.disabled(), 100);
    ScanRequest request = request("m8", null, new byte[3]);
    ScanResult result = pipeline.scan(request);

    MessageInfo clean = pipeline.forwarded(request, result, PipeOutlet.CLEAN);
    MessageInfo quarantined = pipeline.forwarded(request, result, PipeOutlet.QUARANTINE);
    MessageInfo rejected = pipeline.forwarded(request, result, PipeOutlet.REJECTED);

    assertThat(clean.disposition()).isEqualTo(Disposition.FORWARDED_CLEAN);
    assertThat(quarantined.disposition()).isEqualTo(Disposition.QUARANTINED);
    assertThat(rejected.disposition()).isEqualTo(Disposition.REJECTED);
    assertThat(clean.deadLetterReason()).isNull();
    assertThat(clean.id()).isEqualTo("jms:m8");
  }

  @Test
  void refusedRequestIsMalformedWithoutScanning() {
    ScanResult result =
        pipeline(VerdictCache.disabled(), 100)
            .refuse(request("m7", null, new byte[2]), Reason.MALFORMED_REQUEST, "TextMessage");

    assertThat(result.verdict()).isEqualTo(Verdict.ERROR);
    assertThat(result.reason()).isEqualTo(Reason.MALFORMED_REQUEST);
    assertThat(scanner.calls).hasValue(0);
  }
}
