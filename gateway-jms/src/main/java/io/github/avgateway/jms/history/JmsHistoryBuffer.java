package io.github.avgateway.jms.history;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.history.HistoryBacklogGate;
import io.github.avgateway.core.history.HistoryBuffer;
import io.github.avgateway.core.model.MessageInfo;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.List;

/**
 * The JMS gateway's history buffer (docs/history-stream.md): the documents of the consumers'
 * batches that finish while a history message is being committed go together in the next one
 * (core's {@link HistoryBuffer}), sent and committed on a session of its own ({@link
 * JmsHistoryStream}). A batch waits in {@link #send} until the message holding its documents is
 * committed, and commits its replies and consumption only then.
 */
public final class JmsHistoryBuffer implements AutoCloseable {

  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

  private final JmsHistoryStream sender;
  private final HistoryBuffer<HistorySent> buffer;

  public JmsHistoryBuffer(
      ConnectionFactory factory,
      String queue,
      HistoryRoom room,
      HistoryBacklogGate backlog,
      HistoryStreamProperties.Buffer settings) {
    this.sender = new JmsHistoryStream(factory, queue, room, backlog);
    this.buffer =
        new HistoryBuffer<>(
            "avgateway-jms-history-buffer",
            sender,
            error -> new HistorySent.Failed("history message: " + error),
            settings.maxDocuments(),
            settings.maxWait());
  }

  /** Sends {@code documents} (one batch's) in the next history message; its outcome once known. */
  public HistorySent send(List<MessageInfo> documents) {
    return buffer.submit(documents).join();
  }

  /** Sends what is still buffered and closes the connection; once the consumers stopped. */
  @Override
  public void close() {
    buffer.close(CLOSE_WAIT);
    sender.close();
  }
}
