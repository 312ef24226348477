package io.github.avgateway.core.trace;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanReport;
import java.time.Duration;

/** A trace that records nothing: its steps are {@link TraceStep#NONE}, its outcomes ignored. */
abstract class UnrecordedTrace implements RequestTrace {

  @Override
  public final boolean recorded() {
    return false;
  }

  @Override
  public final TraceStep step(String name) {
    return TraceStep.NONE;
  }

  @Override
  public final void scannedBy(String endpoint) {}

  @Override
  public final void scanned(ScanReport report, long bytes, Duration took) {}

  @Override
  public final void finish(MessageInfo document) {}

  @Override
  public final void fail(String why) {}
}
