package io.github.avgateway.amqp;

import io.github.avgateway.core.history.HistoryBacklog;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.port.Availability;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.context.SmartLifecycle;

/**
 * Reopens intake after a full history backlog: while the {@link HistoryBacklogGate} is down, reads
 * the history queue's depth every interval, remembers the first depth read after the refusal and
 * opens the gate once the depth is below it (the indexer made room) or the queue is empty. That
 * works for both bounds, {@code x-max-length} and {@code x-max-length-bytes}, without publishing
 * anything. If the room is gone again, the next history message is refused and the gate closes
 * again. Without it, consumers paused by a full backlog would have nobody to find out that the
 * indexer made room.
 */
public final class AmqpBacklogProbe implements SmartLifecycle {

  private final HistoryBacklog backlog;
  private final HistoryBacklogGate gate;
  private final Duration interval;
  private ScheduledExecutorService executor;
  private long refusedAt = -1;

  public AmqpBacklogProbe(HistoryBacklog backlog, HistoryBacklogGate gate, Duration interval) {
    this.backlog = backlog;
    this.gate = gate;
    this.interval = interval;
  }

  @Override
  public synchronized void start() {
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("amqp-history-backlog-probe").unstarted(r));
    long millis = Math.max(10, interval.toMillis());
    executor.scheduleWithFixedDelay(this::probe, millis, millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return executor != null;
  }

  /** One look; called by the probe's thread only. */
  void probe() {
    if (gate.intake() instanceof Availability.Up) {
      refusedAt = -1;
      return;
    }
    long depth = backlog.messages();
    if (depth < 0) {
      return;
    }
    if (refusedAt < 0 && depth > 0) {
      refusedAt = depth;
    } else if (depth == 0 || depth < refusedAt) {
      refusedAt = -1;
      gate.accepted();
    }
  }
}
