package io.github.avgateway.core.port;

import io.github.avgateway.core.model.EngineVersion;
import io.github.avgateway.core.model.ScanReport;
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

  /** The engine and signature version currently in use, as last reported by the scanner. */
  EngineVersion version();
}
