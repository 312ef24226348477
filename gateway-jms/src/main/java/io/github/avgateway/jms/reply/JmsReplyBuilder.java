package io.github.avgateway.jms.reply;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Session;

/**
 * Builds the reply of the wire contract (docs/architecture.md, "Wire contract"): a {@code
 * BytesMessage} with the JSON body, {@code JMSCorrelationID} = the request's correlation id else
 * its request id, and the string properties {@code avVerdict}, {@code avSignature} (when infected),
 * {@code avReason} (when unscannable or error) and {@code contentType}.
 */
public final class JmsReplyBuilder {

  private JmsReplyBuilder() {}

  public static BytesMessage reply(Session session, ScanResult result) throws JMSException {
    BytesMessage reply = session.createBytesMessage();
    reply.setJMSCorrelationID(result.correlationId());
    reply.setStringProperty(WireNames.VERDICT, result.verdict().name());
    if (result.firstSignature() != null) {
      reply.setStringProperty(WireNames.SIGNATURE, result.firstSignature());
    }
    if (result.reason() != null) {
      reply.setStringProperty(WireNames.REASON, result.reason().name());
    }
    reply.setStringProperty(JmsWire.CONTENT_TYPE, WireNames.JSON_CONTENT_TYPE);
    reply.writeBytes(ScanResultJson.encode(result));
    return reply;
  }
}
