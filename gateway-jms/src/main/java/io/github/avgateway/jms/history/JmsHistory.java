package io.github.avgateway.jms.history;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.wire.HistoryMessages;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.util.List;
import org.apache.activemq.artemis.api.core.ActiveMQAddressFullException;

/**
 * The history stream on JMS (docs/history-stream.md): the history message of a batch, and how a
 * full backlog shows when one is sent.
 */
public final class JmsHistory {

  private JmsHistory() {}

  /** The persistent history message holding {@code documents}. */
  public static BytesMessage message(Session session, List<MessageInfo> documents)
      throws JMSException {
    BytesMessage message = session.createBytesMessage();
    message.writeBytes(HistoryMessages.encode(documents));
    message.setJMSType(HistoryMessages.CONTENT_TYPE);
    message.setIntProperty(WireNames.HISTORY_SCHEMA, HistoryMessages.SCHEMA);
    message.setIntProperty(WireNames.HISTORY_DOCUMENTS, documents.size());
    return message;
  }

  /**
   * Whether the broker refused a send because the history address is full (Artemis page-full policy
   * FAIL). The transaction the send was part of stays usable: the batch may hold it and send again.
   */
  public static boolean backlogFull(JMSException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ActiveMQAddressFullException) {
        return true;
      }
    }
    return false;
  }
}
