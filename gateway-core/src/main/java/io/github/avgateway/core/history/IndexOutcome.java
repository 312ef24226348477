package io.github.avgateway.core.history;

/** What became of one history message handed to the {@link HistoryIndexer}. */
public sealed interface IndexOutcome {

  /**
   * The store accepted all its documents: acknowledge the message.
   *
   * @param documents how many
   */
  record Indexed(int documents) implements IndexOutcome {}

  /**
   * Not a readable history message: dead-letter it with {@code reason} and acknowledge it; it is
   * never retried, so it never blocks the stream.
   *
   * @param reason {@code HISTORY_MALFORMED} or {@code HISTORY_UNKNOWN_SCHEMA}
   * @param detail a sentence for operators
   */
  record Rejected(String reason, String detail) implements IndexOutcome {}

  /**
   * The store did not accept its documents (down, refusing, too slow): leave the message
   * unacknowledged in the broker and try again after a back-off.
   *
   * @param why what the store said
   */
  record Refused(String why) implements IndexOutcome {}
}
