package io.github.avgateway.core.config;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.ScanReport;
import io.github.avgateway.core.port.PipelineObserver;
import java.time.Duration;
import java.util.List;

/** Several {@link PipelineObserver}s as one; each is told in order. */
final class PipelineObservers implements PipelineObserver {

  private final List<PipelineObserver> observers;

  private PipelineObservers(List<PipelineObserver> observers) {
    this.observers = observers;
  }

  static PipelineObserver of(List<PipelineObserver> observers) {
    return switch (observers.size()) {
      case 0 -> PipelineObserver.NONE;
      case 1 -> observers.getFirst();
      default -> new PipelineObservers(List.copyOf(observers));
    };
  }

  @Override
  public void scanned(ScanReport report, long bytes, Duration took) {
    observers.forEach(o -> o.scanned(report, bytes, took));
  }

  @Override
  public void finished(MessageInfo info) {
    observers.forEach(o -> o.finished(info));
  }
}
