package io.github.avgateway.core.port;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanReport;
import java.time.Duration;

/**
 * Watches the scan pipeline, e.g. to count scans for metrics. Called on the scanning thread, so an
 * implementation must be quick and must not throw; the pipeline ignores what it throws anyway.
 * Nothing it sees is sent anywhere by the pipeline itself.
 */
public interface PipelineObserver {

  /** Observes nothing. */
  PipelineObserver NONE =
      new PipelineObserver() {
        @Override
        public void scanned(ScanReport report, long bytes, Duration took) {}

        @Override
        public void finished(MessageInfo info) {}
      };

  /**
   * The scanner answered one payload (cached verdicts and payloads refused before scanning are not
   * reported here).
   *
   * @param bytes how many payload bytes went to the scanner
   * @param took how long the scanner took
   */
  void scanned(ScanReport report, long bytes, Duration took);

  /**
   * A request's outcome is decided: answered or dead-lettered, with the history document that
   * records it. Called once per handled delivery, before history accepted the document.
   */
  void finished(MessageInfo info);
}
