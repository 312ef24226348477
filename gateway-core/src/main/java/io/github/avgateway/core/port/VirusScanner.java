package io.github.avgateway.core.port;

import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.ScanContent;
import io.github.avgateway.core.model.ScanReport;
import java.io.IOException;
import java.io.InputStream;

/** Scans a payload for malware. Implemented by the clamd client. */
public interface VirusScanner {

  /**
   * Scans everything {@code content} yields. Never throws for scan problems: a failure is a report
   * with verdict ERROR. Reports CLEAN only when the scanner read the whole stream and found
   * nothing.
   *
   * @param content the payload; read to its end, not closed
   * @param declaredSize the payload size if known, else {@link
   *     io.github.avgateway.core.model.ScanContent#UNKNOWN_SIZE}; a size over the limit is answered
   *     UNSCANNABLE TOO_LARGE without reading
   */
  ScanReport scan(InputStream content, long declaredSize);

  /**
   * Scans {@code content} as {@link #scan(InputStream, long)} does. A scanner may open it more than
   * once (to send it again after a connection broke, from its first byte); each {@link
   * ScanContent#open()} it makes is read from the start, and the last one is the one it scanned.
   * This default opens it once.
   */
  default ScanReport scan(ScanContent content) {
    try (InputStream in = content.open()) {
      return scan(in, content.size());
    } catch (IOException e) {
      return ScanReport.notClean(
          Reason.SCAN_FAILED, "could not read the payload: " + e.getMessage(), version(), 0);
    }
  }

  /** The engine and signature version currently in use, as last reported by the scanner. */
  EngineVersion version();
}
