package io.github.avgateway.solr;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.HistoryStoreGate;

/**
 * Whether Solr takes history documents now. {@link Availability.Down} while Solr refuses or fails
 * writes, or is so slow that queued documents expire (set by the recorder, cleared by the next
 * accepted batch or write probe), or while retention is behind (documents older than the retention
 * age remain after a purge ran out of its time budget, or the purge failed). The history indexer
 * holds its messages in the broker while it is down, so the index never grows faster than it is
 * purged; scanning goes on (Solr is not on the scan path), until the history backlog in the broker
 * reaches its bound.
 */
public final class SolrHistoryGate implements HistoryStoreGate {

  private volatile Availability writes = Availability.up();
  private volatile Availability retention = Availability.up();

  @Override
  public Availability accepting() {
    Availability w = writes;
    return w instanceof Availability.Down ? w : retention;
  }

  /** The write side alone: down while Solr does not accept batches. */
  public Availability writes() {
    return writes;
  }

  /** The retention side alone: down while the purge is behind or failing. */
  public Availability retention() {
    return retention;
  }

  void writesAccepted() {
    if (writes instanceof Availability.Down) {
      writes = Availability.up();
    }
  }

  void writesFailed(String why) {
    writes = Availability.down("Solr history does not accept writes: " + why);
  }

  void retentionCaughtUp() {
    retention = Availability.up();
  }

  void retentionBehind(String why) {
    retention = Availability.down("Solr history retention is behind: " + why);
  }
}
