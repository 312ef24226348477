package io.github.avgateway.core.clamd;

import io.github.avgateway.core.clamd.Attempt.Failure;
import io.github.avgateway.core.clamd.ClamdEndpoints.Member;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.NoSuchElementException;

/**
 * Runs one scan attempt on one session: lease a session, stream the payload, read and parse the
 * reply, and give the session back only when the exchange ended cleanly. Never throws: every
 * failure is an {@link Attempt.Failed} whose {@link Failure} tells the caller whether to retry.
 */
final class ClamdAttempts {

  private final InstreamWriter writer;
  private final EngineVersionCache versions;
  private final Duration readTimeout;
  private final Duration borrowTimeout;

  ClamdAttempts(ClamdSettings settings, EngineVersionCache versions) {
    this.writer = new InstreamWriter(settings.chunkSizeBytes(), settings.maxSizeBytes());
    this.versions = versions;
    this.readTimeout = settings.readTimeout();
    this.borrowTimeout = settings.borrowTimeout();
  }

  /** An attempt on a pooled session of {@code member}. */
  Attempt pooled(Member member, ScanSource source) {
    return run(member, source, true);
  }

  /** An attempt on a new connection to {@code member}, closed afterwards. */
  Attempt fresh(Member member, ScanSource source) {
    return run(member, source, false);
  }

  /**
   * Asks {@code member} for its version and caches it. Uses a new connection, so that it never
   * waits behind busy scans.
   */
  void refreshVersion(Member member) throws IOException {
    ClamdSessionPool.Lease lease = member.pool().fresh();
    try {
      versions.update(lease.session().version());
    } finally {
      lease.end(false);
    }
  }

  private Attempt run(Member member, ScanSource source, boolean pooled) {
    ClamdSessionPool.Lease lease;
    try {
      lease = pooled ? member.pool().borrow() : member.pool().fresh();
    } catch (NoSuchElementException e) {
      return new Attempt.Failed(
          Failure.BUSY,
          "no free session to clamd " + member.endpoint() + " within " + text(borrowTimeout));
    } catch (IOException | IllegalStateException e) {
      return new Attempt.Failed(
          Failure.UNREACHABLE, "cannot connect to clamd " + member.endpoint() + ": " + e);
    }
    Attempt attempt = exchange(lease.session(), source);
    lease.end(
        attempt instanceof Attempt.Answered a && a.wholePayloadSent() && a.reply().keepsSession());
    if (attempt instanceof Attempt.Failed f && f.failure() == Failure.BROKEN) {
      member.pool().discardIdle();
    }
    return attempt;
  }

  private Attempt exchange(ClamdSession session, ScanSource source) {
    InputStream payload;
    try {
      payload = source.open();
    } catch (PayloadException e) {
      return new Attempt.Failed(Failure.PAYLOAD, e.getMessage());
    }
    try {
      return talk(session, payload);
    } catch (PayloadException e) {
      return new Attempt.Failed(Failure.PAYLOAD, e.getMessage());
    } catch (SocketTimeoutException e) {
      return new Attempt.Failed(
          Failure.TIMED_OUT,
          "clamd "
              + session.endpoint()
              + " did not answer within "
              + text(readTimeout)
              + ": "
              + e.getMessage());
    } catch (IOException e) {
      return new Attempt.Failed(
          Failure.BROKEN, "session to clamd " + session.endpoint() + " broke: " + e.getMessage());
    } finally {
      closeQuietly(payload);
    }
  }

  private Attempt talk(ClamdSession session, InputStream payload)
      throws IOException, PayloadException {
    if (versions.isUnknown()) {
      versions.update(session.version());
    }
    return switch (session.instream(payload, writer)) {
      case ClamdSession.InstreamResult.Replied r -> answered(session, r);
      case ClamdSession.InstreamResult.TooLarge t -> new Attempt.TooLarge(t.bytesRead());
    };
  }

  /**
   * clamd's reply as an answer, except a refusal of the command: clamd did not scan the payload (a
   * clamd that is shutting down refuses the INSTREAM it was receiving, then closes), so the session
   * counts as broken and the scan is retried like one cut by a restart, never answered from it.
   */
  private static Attempt answered(ClamdSession session, ClamdSession.InstreamResult.Replied r) {
    ClamdReply reply = ClamdReplyParser.parse(r.text());
    if (reply instanceof ClamdReply.Refused refused) {
      return new Attempt.Failed(
          Failure.BROKEN,
          "clamd " + session.endpoint() + " refused the scan without scanning: " + refused.words());
    }
    return new Attempt.Answered(reply, r.wholePayloadSent());
  }

  private static void closeQuietly(InputStream payload) {
    try {
      payload.close();
    } catch (IOException e) {
      // The scan's outcome is known; a failure to close the caller's stream does not change it.
    }
  }

  static String text(Duration duration) {
    return duration.toMillis() % 1000 == 0
        ? duration.toSeconds() + "s"
        : duration.toMillis() + "ms";
  }
}
