package io.github.avgateway.core.pipeline;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Disposition;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.model.ScanRequest;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipe.PipeOutlet;
import io.github.avgateway.core.port.PipelineObserver;
import io.github.avgateway.core.port.VirusScanner;
import io.github.avgateway.core.trace.RequestTrace;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Turns a {@link ScanRequest} into a {@link ScanResult}, the same way for every transport: size
 * check, SHA-256 of the content, verdict cache, scan. The result is CLEAN only when the scanner
 * reported CLEAN for the whole content (a cached CLEAN was such a report for identical bytes under
 * the same engine version). The pipeline never throws for a bad payload: it answers a verdict.
 */
public final class ScanPipeline {

  private final VirusScanner scanner;
  private final VerdictCache cache;
  private final long maxSizeBytes;
  private final Clock clock;
  private final String gateway;
  private final PipelineObserver observer;

  /**
   * A pipeline nobody observes; see {@link #ScanPipeline(VirusScanner, VerdictCache, long, Clock,
   * String, PipelineObserver)}.
   */
  public ScanPipeline(
      VirusScanner scanner, VerdictCache cache, long maxSizeBytes, Clock clock, String gateway) {
    this(scanner, cache, maxSizeBytes, clock, gateway, PipelineObserver.NONE);
  }

  /**
   * @param scanner the scanner every uncached payload goes to
   * @param cache the verdict cache ({@link VerdictCache#disabled()} to scan every time)
   * @param maxSizeBytes payloads larger than this are UNSCANNABLE TOO_LARGE, never read
   * @param clock source of timestamps
   * @param gateway this gateway's name, written into replies and history
   * @param observer told of every scan and every outcome (e.g. metrics)
   */
  public ScanPipeline(
      VirusScanner scanner,
      VerdictCache cache,
      long maxSizeBytes,
      Clock clock,
      String gateway,
      PipelineObserver observer) {
    this.scanner = Objects.requireNonNull(scanner, "scanner");
    this.cache = Objects.requireNonNull(cache, "cache");
    if (maxSizeBytes < 0) {
      throw new IllegalArgumentException("maxSizeBytes must not be negative");
    }
    this.maxSizeBytes = maxSizeBytes;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.gateway = Objects.requireNonNull(gateway, "gateway");
    this.observer = Objects.requireNonNull(observer, "observer");
  }

  /** Scans the request's content and returns the verdict for the reply. */
  public ScanResult scan(ScanRequest request) {
    ScanContent content = request.content();
    long declared = content.size();
    if (declared > maxSizeBytes) {
      return result(request, tooLarge(declared), null, declared, false);
    }
    try {
      EngineVersion version = scanner.version();
      return cache.usedFor(version) ? scanWithCache(request, version) : scanStreaming(request);
    } catch (IOException e) {
      ScanReport failed =
          ScanReport.notClean(
              Reason.SCAN_FAILED,
              "could not read the request body: " + e.getMessage(),
              engine(),
              0);
      return result(request, failed, null, Math.max(declared, 0), false);
    }
  }

  /** A result for a request that is refused without scanning (e.g. MALFORMED_REQUEST). */
  public ScanResult refuse(ScanRequest request, Reason reason, String detail) {
    ScanReport report = ScanReport.notClean(reason, detail, engine(), 0);
    return result(request, report, null, Math.max(request.content().size(), 0), false);
  }

  /** The history document of a request that was answered with {@code result}. */
  public MessageInfo replied(ScanRequest request, ScanResult result) {
    return history(request, result, Disposition.REPLIED, null);
  }

  /** The history document of a request that was dead-lettered for {@code reason}. */
  public MessageInfo deadLettered(ScanRequest request, ScanResult result, DeadLetterReason reason) {
    return history(request, result, Disposition.DEAD_LETTERED, Objects.requireNonNull(reason));
  }

  /**
   * The history document of a clean-pipe message forwarded to {@code outlet} (its disposition is
   * the outlet's).
   */
  public MessageInfo forwarded(ScanRequest request, ScanResult result, PipeOutlet outlet) {
    return history(request, result, outlet.disposition(), null);
  }

  /** Scans and hashes in one pass over the content ({@link HashingContent}). */
  private ScanResult scanStreaming(ScanRequest request) throws IOException {
    try (HashingContent content = new HashingContent(request.content())) {
      ScanReport report = scanObserved(content, content::count);
      if (report.reason() == Reason.TOO_LARGE) {
        long size = Math.max(content.count(), request.content().size());
        return result(request, report, null, size, false);
      }
      HashingInputStream whole = content.finish();
      return result(request, report, whole.hex(), whole.count(), false);
    }
  }

  /** {@code version} is the scanner's version before the scan: the key looked up and kept. */
  private ScanResult scanWithCache(ScanRequest request, EngineVersion version) throws IOException {
    String sha256;
    long size;
    try (InputStream raw = request.content().open();
        HashingInputStream in = new HashingInputStream(raw)) {
      byte[] buffer = new byte[65536];
      while (in.read(buffer, 0, buffer.length) >= 0) {
        if (in.count() > maxSizeBytes) {
          return result(request, tooLarge(in.count()), null, in.count(), false);
        }
      }
      sha256 = in.hex();
      size = in.count();
    }
    var cached = cache.find(sha256, version);
    if (cached.isPresent()) {
      return result(request, cached.get(), sha256, size, true);
    }
    ScanReport report = scanObserved(request.content(), () -> size);
    cache.keep(sha256, version, report);
    return result(request, report, sha256, size, false);
  }

  /**
   * Scans and tells the observer and the request's trace, if one is current ({@link
   * RequestTrace#current()}); {@code bytesSent} is read after the scan.
   */
  private ScanReport scanObserved(ScanContent content, LongSupplier bytesSent) {
    long started = System.nanoTime();
    ScanReport report = scanner.scan(content);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    try {
      long bytes = bytesSent.getAsLong();
      observer.scanned(report, bytes, took);
      RequestTrace.current().scanned(report, bytes, took);
    } catch (RuntimeException e) {
      // Observing and tracing are best effort: they never change a verdict.
    }
    return report;
  }

  private ScanReport tooLarge(long size) {
    String detail = "payload of " + size + " bytes is over the limit of " + maxSizeBytes + " bytes";
    return ScanReport.notClean(Reason.TOO_LARGE, detail, engine(), 0);
  }

  private EngineVersion engine() {
    return scanner.version();
  }

  private ScanResult result(
      ScanRequest request, ScanReport report, String sha256, long size, boolean cached) {
    return new ScanResult(
        request.requestId(),
        request.replyCorrelationId(),
        report.verdict(),
        report.signatures(),
        report.reason(),
        report.detail(),
        sha256,
        size,
        report.engine().engine(),
        report.engine().signatureVersion(),
        cached,
        clock.instant(),
        cached ? 0 : report.scanMillis(),
        gateway);
  }

  private MessageInfo history(
      ScanRequest request, ScanResult result, Disposition disposition, DeadLetterReason reason) {
    Instant now = clock.instant();
    MessageInfo info =
        new MessageInfo(
            MessageInfo.idFor(request.transport(), request.requestId()),
            request.requestId(),
            request.correlationId(),
            request.transport(),
            request.clientId(),
            request.filename(),
            request.contentType(),
            result.sizeBytes(),
            result.sha256(),
            result.verdict(),
            result.signatures(),
            result.reason(),
            result.engine(),
            result.signatureVersion(),
            result.cached(),
            request.receivedAt(),
            result.scannedAt(),
            result.scanMillis(),
            Math.max(0, Duration.between(request.receivedAt(), now).toMillis()),
            gateway,
            request.redelivered(),
            disposition,
            reason);
    try {
      observer.finished(info);
    } catch (RuntimeException e) {
      // Observing is best effort: it never stops a reply or a history document.
    }
    return info;
  }
}
