package io.github.avgateway.jms.reply;

import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.pipeline.ScanPipeline;
import io.github.avgateway.core.transport.DeadLetter;
import io.github.avgateway.core.wire.WireNames;
import io.github.avgateway.jms.intake.ConsumerSession;
import io.github.avgateway.jms.intake.Handled;
import io.github.avgateway.jms.triage.BytesMessageContent;
import io.github.avgateway.jms.triage.InboundRequest;
import io.github.avgateway.jms.triage.JmsRequestMapper;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the dead-letter of a request: a {@code BytesMessage} carrying the request's properties
 * (those JMS cannot hold under their own name in {@code avOriginalHeaders}, see {@link
 * DeadLetterProperties}), correlation id and reply destination, the reason ({@code avReason},
 * {@code avReasonDetail}), the verdict recorded for it in history ({@code avVerdict}), the request
 * id ({@code avRequestId}) and original type. The body is the request's bytes for a {@code
 * BytesMessage}, the UTF-8 text for a {@code TextMessage}, and empty for every other type (an
 * {@code ObjectMessage} is never deserialized). {@link #bare} builds the same without anything the
 * caller chose but the correlation id and the body: the fallback when the full one cannot be sent.
 */
public final class JmsDeadLetters {

  /** Artemis streams a body from this property's InputStream instead of holding it. */
  private static final String ARTEMIS_INPUT_STREAM = "JMS_AMQ_InputStream";

  private static final Logger log = LoggerFactory.getLogger(JmsDeadLetters.class);

  private JmsDeadLetters() {}

  /**
   * Sends {@code letter} for {@code message} ({@link #send}) and returns the request as handled,
   * with its history document: the end of every dead-lettered request, reply or forward alike.
   */
  public static Handled deadLettered(
      ScanPipeline pipeline,
      ConsumerSession session,
      Message message,
      InboundRequest inbound,
      ScanResult result,
      DeadLetter letter)
      throws JMSException {
    send(session, message, inbound, letter, result.verdict());
    return new Handled.Done(pipeline.deadLettered(inbound.request(), result, letter.reason()));
  }

  /**
   * Sends the dead-letter of {@code message} through {@code session} (its transaction). One that
   * cannot be sent with the request's properties is sent with the gateway's own only (logged at
   * WARN): never rolled back over what the request carries, which the broker would redeliver to
   * fail the same way until its own DLQ takes it, without reason or history. A broker failure fails
   * the bare send too, and then the batch rolls back.
   *
   * @param verdict the verdict recorded for it in history
   */
  public static void send(
      ConsumerSession session,
      Message message,
      InboundRequest inbound,
      DeadLetter letter,
      Verdict verdict)
      throws JMSException {
    Session jms = session.session();
    DeadLetterReason reason = letter.reason();
    try {
      session.send(
          session.deadLetterQueue(),
          deadLetter(jms, message, inbound, reason, letter.detail(), verdict));
    } catch (JMSException | RuntimeException e) {
      log.warn(
          "The {} dead-letter of request {} could not be sent with the request's properties ({});"
              + " sending it with the gateway's own properties only",
          reason,
          inbound.request().requestId(),
          e.toString());
      session.send(
          session.deadLetterQueue(), bare(jms, message, inbound, reason, letter.detail(), verdict));
    }
  }

  static BytesMessage deadLetter(
      Session session,
      Message original,
      InboundRequest inbound,
      DeadLetterReason reason,
      String detail,
      Verdict verdict)
      throws JMSException {
    BytesMessage letter = session.createBytesMessage();
    DeadLetterProperties.copy(original, letter);
    letter.setJMSReplyTo(inbound.replyTo());
    gatewayProperties(letter, original, inbound, reason, detail, verdict);
    copyBody(original, inbound, letter);
    return letter;
  }

  /** The dead-letter with the gateway's own properties, correlation id and body only. */
  static BytesMessage bare(
      Session session,
      Message original,
      InboundRequest inbound,
      DeadLetterReason reason,
      String detail,
      Verdict verdict)
      throws JMSException {
    BytesMessage letter = session.createBytesMessage();
    gatewayProperties(letter, original, inbound, reason, detail, verdict);
    copyBody(original, inbound, letter);
    return letter;
  }

  private static void gatewayProperties(
      BytesMessage letter,
      Message original,
      InboundRequest inbound,
      DeadLetterReason reason,
      String detail,
      Verdict verdict)
      throws JMSException {
    letter.setJMSCorrelationID(inbound.request().correlationId());
    letter.setStringProperty(WireNames.REASON, reason.name());
    letter.setStringProperty(WireNames.REASON_DETAIL, detail);
    letter.setStringProperty(WireNames.VERDICT, verdict.name());
    letter.setStringProperty(JmsWire.REQUEST_ID, inbound.request().requestId());
    letter.setStringProperty(JmsWire.ORIGINAL_TYPE, JmsRequestMapper.typeName(original));
    letter.setIntProperty(JmsWire.DELIVERY_COUNT, inbound.deliveryCount());
  }

  /**
   * Writes the request's body into {@code letter}: the bytes already read, else streamed from the
   * request (never held in memory), else a TextMessage's UTF-8 text; empty for other types.
   */
  public static void copyBody(Message original, InboundRequest inbound, BytesMessage letter)
      throws JMSException {
    if (inbound.request().content() instanceof BytesMessageContent content && content.loaded()) {
      letter.writeBytes(content.bytesIfLoaded());
    } else if (original instanceof BytesMessage bytes) {
      // Not read (e.g. over the payload limit): streamed from the request, never held in memory.
      letter.setObjectProperty(ARTEMIS_INPUT_STREAM, new BytesMessageInputStream(bytes));
    } else if (original instanceof TextMessage text && text.getText() != null) {
      letter.writeBytes(text.getText().getBytes(StandardCharsets.UTF_8));
    }
  }
}
