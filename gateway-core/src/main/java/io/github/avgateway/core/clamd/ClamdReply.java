package io.github.avgateway.core.clamd;

import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanReport;
import java.util.List;

/**
 * What clamd said about one INSTREAM, in closed form. Produced only by {@link ClamdReplyParser} (or
 * by the client itself for replies that never came); raw clamd strings stay inside as {@code words}
 * for the report's detail and never decide anything by themselves.
 */
sealed interface ClamdReply {

  /** {@code stream: OK}. */
  record Clean() implements ClamdReply {}

  /** One or more {@code <signature> FOUND}, in clamd's order. */
  record Found(List<String> signatures) implements ClamdReply {
    public Found {
      signatures = List.copyOf(signatures);
      if (signatures.isEmpty()) {
        throw new IllegalArgumentException("Found needs a signature");
      }
    }
  }

  /** {@code Heuristics.Limits.Exceeded.*}: clamd stopped at one of its own limits. */
  record LimitsExceeded(String words) implements ClamdReply {}

  /** {@code Heuristics.Encrypted.*}: clamd could not look inside. */
  record Encrypted(String words) implements ClamdReply {}

  /** {@code INSTREAM size limit exceeded}: clamd's StreamMaxLength cut the stream. */
  record SizeLimitExceeded(String words) implements ClamdReply {}

  /**
   * An error about the stream ({@code stream: ... ERROR}), an unknown or contradictory reply, or no
   * reply at all.
   */
  record Failed(String words) implements ClamdReply {}

  /**
   * An error that is not about the stream: clamd refused the command itself, e.g. {@code Error
   * processing command. ERROR} or {@code PROTOCOL ERROR: ancillary data sent without FILDES.
   * ERROR}, which a clamd that is shutting down sends for the INSTREAM it can no longer hand to a
   * scanning thread. It says nothing about the payload, which clamd did not scan.
   */
  record Refused(String words) implements ClamdReply {}

  /**
   * The report for this reply. CLEAN only for {@link Clean} when the whole payload, terminator
   * included, was sent first: an {@code OK} to a cut stream is an ERROR.
   */
  default ScanReport toReport(boolean wholePayloadSent, EngineVersion engine, long scanMillis) {
    return switch (this) {
      case Clean c when wholePayloadSent -> ScanReport.clean(engine, scanMillis);
      case Clean c ->
          ScanReport.notClean(
              Reason.SCAN_FAILED,
              "clamd answered OK before the whole payload was sent",
              engine,
              scanMillis);
      case Found f -> ScanReport.infected(f.signatures(), engine, scanMillis);
      case LimitsExceeded l ->
          ScanReport.notClean(Reason.LIMITS_EXCEEDED, l.words(), engine, scanMillis);
      case Encrypted e -> ScanReport.notClean(Reason.ENCRYPTED, e.words(), engine, scanMillis);
      case SizeLimitExceeded s ->
          ScanReport.notClean(Reason.TOO_LARGE, s.words(), engine, scanMillis);
      case Failed f -> ScanReport.notClean(Reason.SCAN_FAILED, f.words(), engine, scanMillis);
      case Refused r -> ScanReport.notClean(Reason.SCAN_FAILED, r.words(), engine, scanMillis);
    };
  }

  /**
   * Whether clamd keeps the session open after this reply. clamd closes the connection after a
   * stream size error and after refusing a command, and after an unknown reply the session cannot
   * be trusted.
   */
  default boolean keepsSession() {
    return switch (this) {
      case Clean c -> true;
      case Found f -> true;
      case LimitsExceeded l -> true;
      case Encrypted e -> true;
      case SizeLimitExceeded s -> false;
      case Failed f -> false;
      case Refused r -> false;
    };
  }
}
