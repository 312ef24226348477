package io.github.avgateway.core.clamd;

import io.github.avgateway.core.clamd.Attempt.Failure;
import io.github.avgateway.core.clamd.ClamdEndpoints.Member;
import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.VirusScanner;
import io.github.avgateway.core.trace.RequestTrace;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link VirusScanner} on clamd: streams each payload with {@code zINSTREAM} over pooled {@code
 * zIDSESSION} sessions to a healthy endpoint. Guarantees: never throws for a scan problem (it is an
 * ERROR report with the reason in {@code detail}); CLEAN only when clamd answered {@code stream:
 * OK} after the whole payload; a payload over the gateway limit is UNSCANNABLE TOO_LARGE, without a
 * byte sent when its size is declared, and cut before the limit otherwise. A session that breaks,
 * or on which clamd refuses the command without scanning (as it does while stopping), is retried
 * once on a new connection when the payload can be sent again (see {@link #scan(InputStream,
 * long)}); a silent clamd is not retried, so an ERROR comes within the read timeout.
 */
public final class ClamdScanner implements VirusScanner, AutoCloseable {

  private final ClamdSettings settings;
  private final Watchdog watchdog = new Watchdog();
  private final ClamdEndpoints endpoints;
  private final EngineVersionCache versions = new EngineVersionCache();
  private final ClamdAttempts attempts;
  private final ClamdUpkeep upkeep;

  private ClamdScanner(ClamdSettings settings) {
    this.settings = settings;
    this.endpoints = new ClamdEndpoints(settings, watchdog);
    this.attempts = new ClamdAttempts(settings, versions);
    this.upkeep = new ClamdUpkeep(settings, endpoints, attempts);
  }

  /**
   * A scanner for {@code settings}, with its background upkeep started (probing endpoints that are
   * down, refreshing the engine version). Opens no connection itself: clamd may be down.
   */
  public static ClamdScanner start(ClamdSettings settings) {
    ClamdScanner scanner = new ClamdScanner(Objects.requireNonNull(settings, "settings"));
    scanner.upkeep.start();
    return scanner;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The first chunk is buffered so that a session found broken can be retried when nothing past
   * it was read; a larger payload whose session breaks later is answered ERROR. Prefer {@link
   * #scan(ScanContent)}, which can always be retried.
   */
  @Override
  public ScanReport scan(InputStream content, long declaredSize) {
    Objects.requireNonNull(content, "content");
    return scan(ScanSource.of(content, declaredSize, settings.chunkSizeBytes()));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reopens {@code content} for a retry on a new session, whatever was sent before.
   */
  @Override
  public ScanReport scan(ScanContent content) {
    return scan(ScanSource.of(Objects.requireNonNull(content, "content")));
  }

  private ScanReport scan(ScanSource source) {
    long started = System.nanoTime();
    if (source.declaredSize() > settings.maxSizeBytes()) {
      return ScanReport.notClean(
          Reason.TOO_LARGE,
          "declared size "
              + source.declaredSize()
              + " bytes exceeds the gateway limit of "
              + settings.maxSizeBytes()
              + " bytes; nothing was sent to clamd",
          versions.current(),
          millisSince(started));
    }
    try {
      return report(attempt(source), started);
    } catch (RuntimeException e) {
      return ScanReport.notClean(
          Reason.SCAN_FAILED, "scan failed: " + e, versions.current(), millisSince(started));
    }
  }

  /**
   * Tries up endpoints until one answers; a broken session is retried once, on a new one, and an
   * endpoint whose new connection breaks too is marked down.
   */
  private Attempt attempt(ScanSource source) {
    Attempt last = null;
    boolean retrying = false;
    for (int tries = 0; tries < endpoints.size() + 2; tries++) {
      Optional<Member> member = endpoints.pick();
      if (member.isEmpty()) {
        return noEndpoint();
      }
      RequestTrace.current().scannedBy(member.get().endpoint().toString());
      last =
          retrying ? attempts.fresh(member.get(), source) : attempts.pooled(member.get(), source);
      if (!(last instanceof Attempt.Failed failed) || !mayTryAgain(failed, member.get())) {
        return last;
      }
      if (failed.failure() == Failure.BROKEN) {
        if (retrying) {
          // A new connection broke too: the endpoint accepts but does not serve (clamd gone behind
          // a proxy or load balancer). Down until a PING succeeds, so that intake pauses.
          endpoints.markDown(member.get(), failed.why() + " (a new connection broke too)");
          return notRetried(failed, true);
        }
        if (!source.canOpen()) {
          return notRetried(failed, false);
        }
        retrying = true;
      }
    }
    return last;
  }

  /** Marks endpoints down as failures show; true when another attempt may follow. */
  private boolean mayTryAgain(Attempt.Failed failed, Member member) {
    return switch (failed.failure()) {
      case UNREACHABLE -> {
        endpoints.markDown(member, failed.why());
        yield true;
      }
      case TIMED_OUT -> {
        endpoints.markDown(member, failed.why());
        yield false;
      }
      case BROKEN -> true;
      case BUSY, PAYLOAD -> false;
    };
  }

  private Attempt noEndpoint() {
    return new Attempt.Failed(
        Failure.UNREACHABLE, "no clamd endpoint is up: " + endpoints.describe());
  }

  private static Attempt notRetried(Attempt.Failed failed, boolean retried) {
    String note =
        retried
            ? "; the retry on a new session failed too"
            : "; not retried: the payload stream was already read past its first chunk";
    return new Attempt.Failed(failed.failure(), failed.why() + note);
  }

  private ScanReport report(Attempt attempt, long started) {
    EngineVersion engine = versions.current();
    long millis = millisSince(started);
    return switch (attempt) {
      case Attempt.Answered a -> a.reply().toReport(a.wholePayloadSent(), engine, millis);
      case Attempt.TooLarge t ->
          ScanReport.notClean(
              Reason.TOO_LARGE,
              "the payload exceeds the gateway limit of "
                  + settings.maxSizeBytes()
                  + " bytes; clamd was not asked to scan it",
              engine,
              millis);
      case Attempt.Failed f -> ScanReport.notClean(Reason.SCAN_FAILED, f.why(), engine, millis);
    };
  }

  private static long millisSince(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }

  /** The engine and signature version clamd last reported; UNKNOWN until it answered once. */
  @Override
  public EngineVersion version() {
    return versions.current();
  }

  /** The build date of the signature database clamd reported with its version, if any. */
  public Optional<Instant> signatureDate() {
    return versions.signatureDate();
  }

  /** Each endpoint's health and session pool use, in configuration order. */
  public List<ClamdEndpointState> endpointStates() {
    return endpoints.states();
  }

  /** Up while at least one endpoint is up; otherwise DOWN with each endpoint's reason. */
  public Availability availability() {
    return endpoints.availability();
  }

  /**
   * How many times an endpoint that was up has been marked down so far; it changes while a scan
   * fails because clamd went away, even when a probe brings clamd back a moment later.
   */
  public long markedDown() {
    return endpoints.markedDown();
  }

  /** Stops the upkeep and closes every session. Scans after this are answered ERROR. */
  @Override
  public void close() {
    upkeep.close();
    endpoints.close();
    watchdog.close();
  }
}
