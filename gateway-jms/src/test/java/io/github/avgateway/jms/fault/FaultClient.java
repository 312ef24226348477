package io.github.avgateway.jms.fault;

import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultLedger;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Reason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The caller side of a JMS fault run: sends requests (correlation id = the ledger key, reply to the
 * durable queue {@link ArtemisBrokerMain#REPLIES}), marks each confirmed once the broker accepted
 * the persistent send, and feeds every reply and dead-letter into the current ledger. It reconnects
 * by itself when the broker goes away (sends meanwhile fail after a bound and stay unconfirmed). A
 * reply or dead-letter the broker delivers twice (same JMSMessageID) is counted once: only repeats
 * by the gateway are the checker's business. Each request carries its key as Artemis' duplicate id,
 * so a request sent again after a failed send ({@link #sendUntilConfirmed}) reaches the gateway
 * once.
 */
final class FaultClient implements AutoCloseable {

  /** Artemis' duplicate detection property: the broker drops a message whose value it has seen. */
  static final String DUPLICATE_ID =
      org.apache.activemq.artemis.api.core.Message.HDR_DUPLICATE_DETECTION_ID.toString();

  /** Reconnect for ever, notice a dead peer within seconds, give up a blocked call after 10 s. */
  static final String CLIENT_PARAMS =
      "reconnectAttempts=-1&retryInterval=200&maxRetryInterval=1000&callTimeout=10000"
          + "&callFailoverTimeout=10000&clientFailureCheckPeriod=2000&connectionTTL=6000";

  private final Connection connection;
  private final Session sendSession;
  private final MessageProducer producer;
  private final Queue replies;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final AtomicInteger sentAgain = new AtomicInteger();
  private volatile FaultLedger ledger;

  FaultClient(String brokerUrl, String replyQueue) throws JMSException {
    ActiveMQConnectionFactory factory =
        new ActiveMQConnectionFactory(FaultRig.withParams(brokerUrl, CLIENT_PARAMS));
    connection = factory.createConnection();
    sendSession = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    producer = sendSession.createProducer(sendSession.createQueue(ArtemisBrokerMain.REQUESTS));
    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    replies = sendSession.createQueue(replyQueue);
    listen(replyQueue, this::onReply);
    listen(ArtemisBrokerMain.DEAD_LETTERS, this::onDeadLetter);
    connection.start();
  }

  /** From now on replies and dead-letters go to {@code next}. */
  void use(FaultLedger next) {
    ledger = next;
  }

  /** Sends {@code payload} as request {@code key}; true when the broker confirmed it. */
  boolean send(String key, Payload payload) {
    return send(key, payload.expected(), session -> bytes(session, payload));
  }

  /**
   * Sends the message {@code build} makes as request {@code key}, with the key as correlation id
   * and the fault reply queue as JMSReplyTo unless {@code build} set another one.
   */
  synchronized boolean send(String key, Expected expected, MessageBuilder build) {
    ledger.sent(key, expected);
    return attempt(key, build);
  }

  /**
   * Sends {@code payload} as request {@code key}, and again after a send that failed, up to {@code
   * attempts} times in all. A send that fails while the broker fails over may have arrived or not;
   * every request carries its key as Artemis' duplicate id ({@link #DUPLICATE_ID}), so the broker
   * drops a copy of one that did, and the gateway sees each request once.
   *
   * @return true when the broker confirmed one of the sends
   */
  synchronized boolean sendUntilConfirmed(String key, Payload payload, int attempts) {
    ledger.sent(key, payload.expected());
    for (int attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        sentAgain.incrementAndGet();
      }
      if (attempt(key, session -> bytes(session, payload))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Sends request {@code key} once more without telling the ledger: a caller repeating a send it
   * believes failed. With the same duplicate id, the broker drops it if it has the first.
   */
  synchronized boolean sendCopy(String key, Payload payload) {
    return attempt(key, session -> bytes(session, payload));
  }

  /** Sends made again after a failed one ({@link #sendUntilConfirmed}) since the client began. */
  int sentAgain() {
    return sentAgain.get();
  }

  private boolean attempt(String key, MessageBuilder build) {
    try {
      Message message = build.build(sendSession);
      message.setJMSCorrelationID(key);
      message.setStringProperty(DUPLICATE_ID, key);
      if (message.getJMSReplyTo() == null) {
        message.setJMSReplyTo(replies);
      }
      producer.send(message);
      ledger.confirmed(key);
      return true;
    } catch (JMSException | RuntimeException e) {
      System.out.println("FAULT client: the send of " + key + " failed: " + e);
      return false;
    }
  }

  /** As {@link #send(String, Expected, MessageBuilder)}, the producer giving no JMSMessageID. */
  synchronized boolean sendWithoutMessageId(String key, Expected expected, MessageBuilder build) {
    setDisableMessageId(true);
    boolean confirmed = send(key, expected, build);
    setDisableMessageId(false);
    return confirmed;
  }

  private void setDisableMessageId(boolean disable) {
    try {
      producer.setDisableMessageID(disable);
    } catch (JMSException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Message bytes(Session session, Payload payload) throws JMSException {
    BytesMessage message = session.createBytesMessage();
    message.writeBytes(payload.body());
    message.setStringProperty(WireNames.FILENAME, payload.filename());
    return message;
  }

  private void listen(String queue, jakarta.jms.MessageListener listener) throws JMSException {
    Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    session.createConsumer(session.createQueue(queue)).setMessageListener(listener);
  }

  private void onReply(Message message) {
    Verdict verdict = verdict(message);
    record(
        message,
        key -> {
          if (verdict == Verdict.ERROR) {
            ledger.printErrorReply(key, body(message));
          }
          ledger.reply(key, verdict, enumOrNull(Reason.class, message));
        });
  }

  private static String body(Message message) {
    try {
      return new String(message.getBody(byte[].class), StandardCharsets.UTF_8);
    } catch (JMSException | RuntimeException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private void onDeadLetter(Message message) {
    record(
        message,
        key ->
            ledger.deadLetter(
                key, enumOrNull(DeadLetterReason.class, message), verdict(message), null));
  }

  private void record(Message message, java.util.function.Consumer<String> into) {
    try {
      if (seen.add(message.getJMSMessageID()) && ledger != null) {
        into.accept(message.getJMSCorrelationID());
      }
    } catch (JMSException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Verdict verdict(Message message) {
    return property(message, WireNames.VERDICT, Verdict::valueOf);
  }

  private static <E extends Enum<E>> E enumOrNull(Class<E> type, Message message) {
    return property(message, WireNames.REASON, value -> Enum.valueOf(type, value));
  }

  private static <T> T property(Message message, String name, Function<String, T> parse) {
    try {
      String value = message.getStringProperty(name);
      return value == null ? null : parse.apply(value);
    } catch (JMSException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws JMSException {
    connection.close();
  }

  /** Makes one request message on the client's sending session. */
  @FunctionalInterface
  interface MessageBuilder {
    Message build(Session session) throws JMSException;
  }
}
