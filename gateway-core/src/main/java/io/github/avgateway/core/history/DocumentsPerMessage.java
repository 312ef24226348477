package io.github.avgateway.core.history;

/**
 * A running mean of the documents one history message holds (one or more consumer batches': 1 under
 * light load, up to the batch size under heavy load), weighted towards the latest messages. The
 * brokers count messages, not the documents in them; this turns that count into an estimate in
 * documents. Thread-safe.
 */
public final class DocumentsPerMessage {

  /** Weight of each new message: the mean follows the last hundred or so. */
  private static final double WEIGHT = 1.0 / 64;

  private double mean = Double.NaN;

  /** A history message of {@code documents} documents was sent or taken from the stream. */
  public synchronized void saw(int documents) {
    mean = Double.isNaN(mean) ? documents : mean + WEIGHT * (documents - mean);
  }

  /** About how many documents {@code messages} history messages hold; -1 when unknown. */
  public synchronized long documentsIn(long messages) {
    return messages < 0 || Double.isNaN(mean) ? -1 : Math.round(messages * mean);
  }
}
