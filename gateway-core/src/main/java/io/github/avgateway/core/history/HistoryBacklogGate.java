package io.github.avgateway.core.history;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scan path's view of the history stream's bound: {@link Availability.Down} from the moment the
 * broker refused a history message because the backlog is full, until it accepts one again (a batch
 * retrying its history, or the front-end's probe). While it is down, consumers take no new requests
 * (they stay in the broker) and readiness says why. Thread-safe.
 */
public final class HistoryBacklogGate implements IntakeGate {

  private static final Logger log = LoggerFactory.getLogger(HistoryBacklogGate.class);

  private final String queue;
  private final DocumentsPerMessage sizes = new DocumentsPerMessage();
  private volatile Availability state = Availability.up();

  /**
   * @param queue the history queue's name, for the reason
   */
  public HistoryBacklogGate(String queue) {
    this.queue = queue;
  }

  @Override
  public Availability intake() {
    return state;
  }

  /** The broker refused a history message: the backlog is at its bound. Logged once per episode. */
  public void full(String brokerSays) {
    if (state instanceof Availability.Up) {
      state =
          Availability.down(
              "history backlog full: the broker refuses history on "
                  + queue
                  + " ("
                  + brokerSays
                  + "); intake paused until the history indexer drains it");
      log.warn("{}", ((Availability.Down) state).why());
    }
  }

  /** The broker accepted a batch's history message of {@code documents}: there is room again. */
  public void accepted(int documents) {
    sizes.saw(documents);
    accepted();
  }

  /** The broker accepted a history message: there is room again. */
  public void accepted() {
    if (state instanceof Availability.Down) {
      state = Availability.up();
      log.info("history backlog on {} below its bound again; intake resumes", queue);
    }
  }

  /** The documents per history message this process sent. */
  public DocumentsPerMessage sizes() {
    return sizes;
  }
}
