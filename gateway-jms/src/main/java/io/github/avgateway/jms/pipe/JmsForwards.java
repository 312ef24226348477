package io.github.avgateway.jms.pipe;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.pipe.ForwardHeaders;
import io.github.avgateway.core.wire.WireNames;
import io.github.avgateway.jms.reply.DeadLetterProperties;
import io.github.avgateway.jms.reply.JmsDeadLetters;
import io.github.avgateway.jms.reply.JmsWire;
import io.github.avgateway.jms.triage.InboundRequest;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Builds the message a clean-pipe forwards: a {@code BytesMessage} (the only type a pipe accepts)
 * with the original's body bytes, the producer's properties (those JMS cannot hold under their own
 * name go into {@code avOriginalHeaders}, as on a dead-letter), {@code JMSCorrelationID}, {@code
 * JMSType}, {@code JMSReplyTo} and message group ({@code JMSXGroupID}, {@code JMSXGroupSeq}), plus
 * the gateway's properties of {@link ForwardHeaders} and {@code avRequestId}, the original's
 * request id, which replace any the producer set. Priority, persistence and time to live are given
 * at the send ({@link #timeToLive}); {@code JMSMessageID} and {@code JMSTimestamp} are the broker's
 * new ones, which is why {@code avRequestId} carries the original's id: a repeated forward (after a
 * crash) carries the same one.
 */
final class JmsForwards {

  /** The producer's properties of these names are left out: the gateway sets its own. */
  static final Set<String> REPLACED = replaced();

  /** A producer's property of this name is carried inside the one the gateway sets. */
  private static final Set<String> RESERVED = Set.of(WireNames.ORIGINAL_HEADERS);

  private static final String GROUP_ID = "JMSXGroupID";
  private static final String GROUP_SEQUENCE = "JMSXGroupSeq";

  private JmsForwards() {}

  /** The forward of {@code original}, scanned with {@code result}. */
  static BytesMessage forward(
      Session session, Message original, InboundRequest inbound, ScanResult result)
      throws JMSException {
    BytesMessage forward = session.createBytesMessage();
    DeadLetterProperties.copy(original, forward, RESERVED, REPLACED);
    if (original.getJMSCorrelationID() != null) {
      forward.setJMSCorrelationID(original.getJMSCorrelationID());
    }
    if (original.getJMSType() != null) {
      forward.setJMSType(original.getJMSType());
    }
    forward.setJMSReplyTo(original.getJMSReplyTo());
    copyGroup(original, forward);
    forward.setStringProperty(JmsWire.REQUEST_ID, inbound.request().requestId());
    for (Map.Entry<String, String> header : ForwardHeaders.of(result).entrySet()) {
      forward.setStringProperty(header.getKey(), header.getValue());
    }
    JmsDeadLetters.copyBody(original, inbound, forward);
    return forward;
  }

  /**
   * The time to live that keeps {@code original}'s expiration: 0 (never) when it has none, else
   * what is left of it at {@code nowMillis}, at least 1 ms (an expired one then expires at once, as
   * the producer asked).
   */
  static long timeToLive(Message original, long nowMillis) throws JMSException {
    long expiration = original.getJMSExpiration();
    return expiration <= 0 ? 0 : Math.max(1, expiration - nowMillis);
  }

  private static void copyGroup(Message original, Message forward) throws JMSException {
    String group = original.getStringProperty(GROUP_ID);
    if (group != null) {
      forward.setStringProperty(GROUP_ID, group);
      if (original.propertyExists(GROUP_SEQUENCE)) {
        forward.setIntProperty(GROUP_SEQUENCE, original.getIntProperty(GROUP_SEQUENCE));
      }
    }
  }

  private static Set<String> replaced() {
    Set<String> names = new HashSet<>(ForwardHeaders.NAMES);
    names.add(JmsWire.REQUEST_ID);
    return Set.copyOf(names);
  }
}
