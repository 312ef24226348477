package io.github.avgateway.jms.history;

/**
 * Whether the history address has room for another history message now. On the embedded broker it
 * asks the broker's paging store; on an external broker it cannot know and says yes (the send or
 * the commit then tells).
 */
@FunctionalInterface
public interface HistoryRoom {

  /** An external broker: room is found out by sending. */
  HistoryRoom UNKNOWN = () -> true;

  boolean hasRoom();
}
