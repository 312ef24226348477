package io.github.avgateway.jms.history;

/** What became of a history message that {@link JmsHistoryStream} sent on its own session. */
public sealed interface HistorySent {

  /** Committed: the broker holds it durably on the history queue. */
  record Committed() implements HistorySent {}

  /** Refused because the history backlog is at its bound; nothing of it was committed. */
  record Full(String why) implements HistorySent {}

  /** The broker failed (or the buffer closed); whether it holds the message is not known. */
  record Failed(String why) implements HistorySent {}
}
