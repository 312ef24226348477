package io.github.avgateway.amqp.history;

import io.github.avgateway.core.history.HistoryBacklog;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.RepeatingCheck;
import io.github.avgateway.core.port.Availability;
import java.time.Duration;
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
  private final RepeatingCheck repeating;
  private long refusedAt = -1;

  public AmqpBacklogProbe(HistoryBacklog backlog, HistoryBacklogGate gate, Duration interval) {
    this.backlog = backlog;
    this.gate = gate;
    this.repeating = new RepeatingCheck("amqp-history-backlog-probe", this::probe, interval);
  }

  @Override
  public void start() {
    repeating.start();
  }

  @Override
  public void stop() {
    repeating.stop();
  }

  @Override
  public boolean isRunning() {
    return repeating.running();
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
