package io.github.avgateway.core.logging;

import io.github.avgateway.core.model.ScanRequest;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.LoggerFactory;

/**
 * Tells operators why a caller hears nothing when its reply destination is refused: one WARN line
 * per client id and destination per minute (a caller can send refused requests at will), naming the
 * request id, the client id, the destination and why it was refused, never the payload or the file
 * name. Thread-safe.
 */
public final class ReplyRefusalLog {

  private static final Duration WINDOW = Duration.ofMinutes(1);
  private static final int MAX_KEYS = 1000;

  private final RateLimitedWarning warning;

  public ReplyRefusalLog(Clock clock) {
    warning =
        new RateLimitedWarning(
            LoggerFactory.getLogger(ReplyRefusalLog.class), WINDOW, MAX_KEYS, clock);
  }

  /**
   * Reports that {@code request}, which asked for replies at {@code destination}, was refused.
   *
   * @param destination the reply destination as the transport names it
   * @param why the policy's reason
   */
  public void refused(ScanRequest request, String destination, String why) {
    String client = request.clientId() == null ? "(none)" : request.clientId();
    warning.warn(
        client + " -> " + destination,
        "Refused reply destination {} of client {} ({}); request {} dead-lettered unscanned as"
            + " REPLY_DESTINATION_NOT_ALLOWED",
        destination,
        client,
        why,
        request.requestId());
  }
}
