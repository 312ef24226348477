package io.github.avgateway.jms.fault;

import io.github.avgateway.core.contract.ContractFiles;
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
import jakarta.jms.Session;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The producer and the downstream consumers of a clean-pipe fault run: sends files to the pipe's
 * inbox (correlation id = the ledger key, persistent; confirmed once the send returned), and takes
 * everything off the pipe's clean, quarantine and rejected queues and its dead-letter queue. A
 * forward counts in the ledger as a reply with the forward's {@code avVerdict} (so the ledger's
 * checks apply: lost, unsafe CLEAN, inconsistent verdicts, history), and is recorded by destination
 * so that a file in two destinations, a forward to the wrong outlet and EICAR content on the clean
 * queue can be counted. Reconnects by itself when the broker goes away; a forward the broker
 * delivers twice (same JMSMessageID) counts once.
 */
final class PipeFaultClient implements AutoCloseable {

  static final String DEAD_LETTERS = "dead-letters";

  private final Connection connection;
  private final Session sendSession;
  private final MessageProducer producer;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final Map<String, List<String>> arrivals = new ConcurrentHashMap<>();
  private final Set<String> eicarDigests = ConcurrentHashMap.newKeySet();
  private final AtomicInteger misrouted = new AtomicInteger();
  private final AtomicInteger eicarOnClean = new AtomicInteger();
  private volatile FaultLedger ledger;

  PipeFaultClient(String brokerUrl) throws JMSException {
    ActiveMQConnectionFactory factory =
        new ActiveMQConnectionFactory(FaultRig.withParams(brokerUrl, FaultClient.CLIENT_PARAMS));
    connection = factory.createConnection();
    sendSession = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    producer = sendSession.createProducer(sendSession.createQueue(ArtemisBrokerMain.PIPE_INBOX));
    producer.setDeliveryMode(DeliveryMode.PERSISTENT);
    listen(ArtemisBrokerMain.PIPE_CLEAN);
    listen(ArtemisBrokerMain.PIPE_QUARANTINE);
    listen(ArtemisBrokerMain.PIPE_REJECTED);
    listen(ArtemisBrokerMain.PIPE_DEAD_LETTERS);
    connection.start();
  }

  /** From now on forwards and dead-letters go to {@code next}; the pipe's counts start at 0. */
  void use(FaultLedger next) {
    ledger = next;
    misrouted.set(0);
    eicarOnClean.set(0);
  }

  /** Sends {@code payload} to the inbox as file {@code key}; true when the broker confirmed it. */
  synchronized boolean send(String key, Payload payload) {
    ledger.sent(key, payload.expected());
    if (payload.expected().eicarBearing()) {
      eicarDigests.add(ContractFiles.sha256(payload.body()));
    }
    try {
      BytesMessage message = sendSession.createBytesMessage();
      message.writeBytes(payload.body());
      message.setStringProperty(WireNames.FILENAME, payload.filename());
      message.setStringProperty("producerTag", key);
      message.setStringProperty(FaultClient.DUPLICATE_ID, key);
      message.setJMSCorrelationID(key);
      producer.send(message);
      ledger.confirmed(key);
      return true;
    } catch (JMSException | RuntimeException e) {
      System.out.println("FAULT pipe client: the send of " + key + " failed: " + e);
      return false;
    }
  }

  /** The queues file {@code key} arrived on, once per arrival (a repeated forward twice). */
  List<String> arrivals(String key) {
    return List.copyOf(arrivals.getOrDefault(key, List.of()));
  }

  /** Files of {@code keys} that reached the rejected queue. */
  long rejected(List<String> keys) {
    return keys.stream()
        .filter(key -> arrivals(key).contains(ArtemisBrokerMain.PIPE_REJECTED))
        .count();
  }

  /** Forwards whose queue is not the outlet of their {@code avVerdict}. */
  int misrouted() {
    return misrouted.get();
  }

  /** Forwards on the clean queue whose body is one of the EICAR-bearing payloads sent. */
  int eicarOnClean() {
    return eicarOnClean.get();
  }

  private void listen(String queue) throws JMSException {
    Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    session
        .createConsumer(session.createQueue(queue))
        .setMessageListener(message -> arrived(queue, message));
  }

  private void arrived(String queue, Message message) {
    try {
      if (!seen.add(message.getJMSMessageID()) || ledger == null) {
        return;
      }
      String key = message.getJMSCorrelationID();
      Verdict verdict = enumOrNull(Verdict.class, message.getStringProperty(WireNames.VERDICT));
      String reason = message.getStringProperty(WireNames.REASON);
      boolean deadLetter = queue.equals(ArtemisBrokerMain.PIPE_DEAD_LETTERS);
      arrivals
          .computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
          .add(deadLetter ? DEAD_LETTERS : queue);
      if (deadLetter) {
        ledger.deadLetter(key, enumOrNull(DeadLetterReason.class, reason), verdict, null);
        return;
      }
      if (!queue.equals(outletOf(verdict))) {
        misrouted.incrementAndGet();
      }
      if (queue.equals(ArtemisBrokerMain.PIPE_CLEAN)
          && eicarDigests.contains(ContractFiles.sha256(body(message)))) {
        eicarOnClean.incrementAndGet();
      }
      ledger.reply(key, verdict, enumOrNull(Reason.class, reason));
    } catch (JMSException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String outletOf(Verdict verdict) {
    return switch (verdict) {
      case null -> "none";
      case CLEAN -> ArtemisBrokerMain.PIPE_CLEAN;
      case INFECTED -> ArtemisBrokerMain.PIPE_QUARANTINE;
      case UNSCANNABLE, ERROR -> ArtemisBrokerMain.PIPE_REJECTED;
    };
  }

  private static byte[] body(Message message) throws JMSException {
    BytesMessage bytes = (BytesMessage) message;
    byte[] body = new byte[(int) bytes.getBodyLength()];
    bytes.readBytes(body);
    return body;
  }

  private static <E extends Enum<E>> E enumOrNull(Class<E> type, String value) {
    return value == null ? null : Enum.valueOf(type, value);
  }

  @Override
  public void close() throws JMSException {
    connection.close();
  }
}
