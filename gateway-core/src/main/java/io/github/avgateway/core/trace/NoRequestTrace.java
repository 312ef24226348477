package io.github.avgateway.core.trace;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanReport;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Duration;

/** {@link RequestTrace#NONE}: records nothing, writes no header, allocates nothing. */
enum NoRequestTrace implements RequestTrace {
  INSTANCE;

  private static final Scope NO_SCOPE = () -> {};

  @Override
  public Scope makeCurrent() {
    return NO_SCOPE;
  }

  @Override
  public boolean recorded() {
    return false;
  }

  @Override
  public String traceId() {
    return null;
  }

  @Override
  public <C> TraceStep publish(
      String name, String destination, C carrier, Propagator.Setter<C> setter) {
    return TraceStep.NONE;
  }

  @Override
  public TraceStep step(String name) {
    return TraceStep.NONE;
  }

  @Override
  public void scannedBy(String endpoint) {}

  @Override
  public void scanned(ScanReport report, long bytes, Duration took) {}

  @Override
  public void finish(MessageInfo document) {}

  @Override
  public void fail(String why) {}
}
