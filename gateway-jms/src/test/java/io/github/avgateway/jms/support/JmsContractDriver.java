package io.github.avgateway.jms.support;

import io.github.avgateway.core.contract.ContractDeadLetter;
import io.github.avgateway.core.contract.ContractReply;
import io.github.avgateway.core.contract.ContractRequest;
import io.github.avgateway.core.contract.TransportDriver;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.core.wire.WireNames;
import io.github.avgateway.jms.reply.JmsWire;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The contract suite's view of the JMS gateway: a plain JMS client of the broker, replies on a
 * temporary queue it owns, dead-letters read from the gateway's dead-letter queue.
 */
public final class JmsContractDriver implements TransportDriver {

  private final Connection connection;
  private final String requestQueue;
  private final String deadLetterQueue;
  private final Function<String, Optional<MessageInfo>> history;
  private final ThreadLocal<Sender> senders;
  private TemporaryQueue replyQueue;

  private record Sender(Session session, MessageProducer producer) {}

  public JmsContractDriver(
      ConnectionFactory factory,
      String requestQueue,
      String deadLetterQueue,
      Function<String, Optional<MessageInfo>> history)
      throws JMSException {
    this.connection = factory.createConnection();
    this.requestQueue = requestQueue;
    this.deadLetterQueue = deadLetterQueue;
    this.history = history;
    this.senders = ThreadLocal.withInitial(this::newSender);
  }

  @Override
  public String transport() {
    return "jms";
  }

  @Override
  public void open(Consumer<ContractReply> replies, Consumer<ContractDeadLetter> deadLetters)
      throws JMSException {
    Session replySession = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    replyQueue = replySession.createTemporaryQueue();
    replySession.createConsumer(replyQueue).setMessageListener(m -> replies.accept(reply(m)));
    Session deadLetterSession = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    deadLetterSession
        .createConsumer(deadLetterSession.createQueue(deadLetterQueue))
        .setMessageListener(m -> deadLetters.accept(deadLetter(m)));
    connection.start();
  }

  @Override
  public String send(ContractRequest request) throws JMSException {
    Sender sender = senders.get();
    BytesMessage message = sender.session().createBytesMessage();
    message.writeBytes(request.body());
    if (request.filename() != null) {
      message.setStringProperty(WireNames.FILENAME, request.filename());
    }
    return send(sender, message, request.correlationId(), request.withReplyDestination());
  }

  @Override
  public String sendMalformed(String correlationId) throws JMSException {
    Sender sender = senders.get();
    TextMessage message = sender.session().createTextMessage("not a file");
    return send(sender, message, correlationId, true);
  }

  /** Sends any prepared message the way the contract's requests are sent. */
  public String send(Message message, String correlationId, boolean withReplyDestination)
      throws JMSException {
    return send(senders.get(), message, correlationId, withReplyDestination);
  }

  /** The driver's reply queue (after {@link #open}). */
  public TemporaryQueue replyQueue() {
    return replyQueue;
  }

  /** A session of the calling thread, to create messages for {@link #send(Message, ...)}. */
  public Session session() {
    return senders.get().session();
  }

  @Override
  public Optional<MessageInfo> history(String requestId) {
    return history.apply(requestId);
  }

  @Override
  public void close() throws JMSException {
    connection.close();
  }

  private String send(
      Sender sender, Message message, String correlationId, boolean withReplyDestination)
      throws JMSException {
    if (correlationId != null) {
      message.setJMSCorrelationID(correlationId);
    }
    if (withReplyDestination) {
      message.setJMSReplyTo(replyQueue);
    }
    sender.producer().send(message);
    return message.getJMSMessageID();
  }

  private Sender newSender() {
    try {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      return new Sender(session, session.createProducer(session.createQueue(requestQueue)));
    } catch (JMSException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ContractReply reply(Message message) {
    try {
      BytesMessage bytes = (BytesMessage) message;
      byte[] body = new byte[(int) bytes.getBodyLength()];
      bytes.readBytes(body);
      return new ContractReply(
          message.getJMSCorrelationID(),
          message.getStringProperty(WireNames.VERDICT),
          message.getStringProperty(WireNames.SIGNATURE),
          message.getStringProperty(WireNames.REASON),
          message.getStringProperty(JmsWire.CONTENT_TYPE),
          ScanResultJson.decode(body));
    } catch (JMSException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ContractDeadLetter deadLetter(Message message) {
    try {
      String reason = message.getStringProperty(WireNames.REASON);
      return new ContractDeadLetter(
          message.getStringProperty(JmsWire.REQUEST_ID),
          message.getJMSCorrelationID(),
          reason == null ? null : DeadLetterReason.valueOf(reason),
          message.getStringProperty(WireNames.REASON_DETAIL));
    } catch (JMSException e) {
      throw new IllegalStateException(e);
    }
  }
}
