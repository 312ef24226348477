package io.github.avgateway.jms.broker;

import io.github.avgateway.core.history.HistoryBacklog;

/**
 * How many history messages wait on the history queue, as the embedded broker counts them (its
 * queue's message count, delivered-but-unacknowledged included). An external broker is not asked:
 * the gateway then has no {@link HistoryBacklog}, and a full history address is found out by the
 * send or the commit that it refuses.
 */
public final class JmsHistoryBacklog implements HistoryBacklog {

  private final EmbeddedBroker broker;
  private final String queue;

  public JmsHistoryBacklog(EmbeddedBroker broker, String queue) {
    this.broker = broker;
    this.queue = queue;
  }

  @Override
  public long messages() {
    return broker.messageCount(queue);
  }
}
