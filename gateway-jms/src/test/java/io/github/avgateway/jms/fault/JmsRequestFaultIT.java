package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultPayloads.Payload;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.fault.TestFiles;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.junit.jupiter.api.Test;

/**
 * Hostile and broken requests amid ordinary load (issue 8, scenarios 13–19 and 21; issue 24,
 * properties JMS cannot set): each gets its typed answer (UNSCANNABLE with a reason, or a
 * dead-letter with a reason), the ordinary requests around them are answered as usual, and no file
 * name or payload ever reaches a log.
 */
class JmsRequestFaultIT extends AbstractJmsFaultIT {

  private static final int OVER_THE_LIMIT = 1_500_000; // the fault gateway's max-size is 1 MB

  @Test
  void oversizedZipBombAndEncryptedPayloadsGetTheirReasons() {
    FaultRun run = new FaultRun(env, "hostile-payloads");
    for (int i = 0; i < 3; i++) {
      run.mixed(20);
      run.send(FaultPayloads.oversized(OVER_THE_LIMIT));
      run.send(FaultPayloads.zipBomb());
      run.send(FaultPayloads.encrypted());
    }
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  void poisonRequestIsDeadLetteredAfterTheDeliveryLimitOthersUnaffected() throws Exception {
    fillTheFullReplyQueue();
    FaultRun run = new FaultRun(env, "poison");
    run.mixed(30);
    Payload clean = new Payload(FaultPayloads.clean(run.prefix, -1), "poison.txt", null);
    run.send(
        Expected.deadLetter(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED, Verdict.ERROR, false),
        session -> {
          BytesMessage message = session.createBytesMessage();
          message.writeBytes(clean.body());
          message.setJMSReplyTo(ActiveMQDestination.createQueue(ArtemisBrokerMain.FULL_REPLIES));
          return message;
        });
    run.mixed(30);
    run.finish().assertHolds(Duplicates.EXPLAINED_BY_REDELIVERY).assertAsExpected();
  }

  @Test
  void malformedRequestsAreDeadLetteredAsMalformed() {
    FaultRun run = new FaultRun(env, "malformed");
    Expected malformed =
        Expected.deadLetter(DeadLetterReason.MALFORMED_REQUEST, Verdict.ERROR, false);
    run.mixed(20);
    run.send(malformed, session -> session.createTextMessage("not a file"));
    run.send(malformed, session -> session.createObjectMessage(java.time.Instant.EPOCH));
    run.send(malformed, session -> session.createMapMessage());
    run.send(malformed, Session::createMessage);
    run.send(Expected.clean(), session -> garbageHeaders(session, run.prefix));
    run.send(malformed, session -> hugeClientId(session, run.prefix));
    env.client.sendWithoutMessageId(
        run.key(), Expected.clean(), session -> bytes(session, run.prefix, null));
    run.mixed(20);
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  void spoofedReplyToIsRefusedAndDeadLettered() {
    FaultRun run = new FaultRun(env, "spoofed-reply-to");
    Expected refused =
        Expected.deadLetter(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, Verdict.ERROR, false);
    run.mixed(20);
    for (var spoofed :
        List.of(
            ActiveMQDestination.createQueue(ArtemisBrokerMain.REQUESTS),
            ActiveMQDestination.createQueue("orders.incoming"),
            ActiveMQDestination.createTopic("av.reply.topic"))) {
      run.send(refused, session -> bytes(session, run.prefix, spoofed));
    }
    run.mixed(20);
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  void propertiesJmsCannotSetAreDeadLetteredOnceNotLoopedIntoTheBrokersDlq() throws Exception {
    FaultRun run = new FaultRun(env, "foreign-properties");
    long brokerDlqBefore = brokerDlqCount();
    run.mixed(20);
    for (int i = 0; i < 3; i++) {
      run.send(
          Expected.deadLetter(DeadLetterReason.MALFORMED_REQUEST, Verdict.ERROR, false),
          session -> foreign(session.createTextMessage("sent without content-length")));
      run.send(
          Expected.deadLetter(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, Verdict.ERROR, false),
          session ->
              foreign(bytes(session, run.prefix, ActiveMQDestination.createQueue("orders"))));
    }
    run.mixed(20);
    FaultReport report = run.finish();
    report.assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
    assertThat(run.redelivered()).as("history documents of redelivered requests").isZero();
    assertThat(brokerDlqCount()).as("requests in Artemis' own DLQ").isEqualTo(brokerDlqBefore);
  }

  @Test
  void replyQueueDeletedBeforeTheReplyIsDeadLettered() throws Exception {
    FaultRun run = new FaultRun(env, "reply-queue-deleted");
    Expected unroutable =
        Expected.deadLetter(DeadLetterReason.REPLY_UNROUTABLE, Verdict.CLEAN, false);
    run.mixed(20);
    try (Connection other = otherConnection()) {
      Session session = other.createSession(Session.AUTO_ACKNOWLEDGE);
      TemporaryQueue gone = session.createTemporaryQueue();
      gone.delete();
      run.send(unroutable, s -> bytes(s, run.prefix, gone));
    }
    run.send(
        unroutable, s -> bytes(s, run.prefix, ActiveMQDestination.createQueue("av.reply.gone")));
    run.mixed(20);
    run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
  }

  @Test
  void canaryFileNameAndPayloadNeverReachALog() throws Exception {
    String name = "canary-name-Q7Z3K.txt";
    String text = "CANARY-PAYLOAD-9F2XW";
    FaultRun run = new FaultRun(env, "canary");
    AutoCloseable debug = env.logs.debug();
    try {
      run.mixed(10);
      byte[] body = (text + " secret contents\n").getBytes(StandardCharsets.US_ASCII);
      run.send(new Payload(body, name, Expected.clean()));
      run.send(new Payload(FaultPayloads.eicarZip(7), name, Expected.infected()));
      run.send(
          Expected.deadLetter(DeadLetterReason.MALFORMED_REQUEST, Verdict.ERROR, false),
          session -> session.createTextMessage(text));
      // The refused destination's name is logged (rate-limited), so it is not the canary here.
      var refusedQueue = ActiveMQDestination.createQueue("refused." + run.prefix);
      run.send(
          Expected.deadLetter(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, Verdict.ERROR, false),
          session -> named(bytes(session, text, refusedQueue), name));
      run.finish().assertHolds(Duplicates.FORBIDDEN).assertAsExpected();
    } finally {
      debug.close();
    }
    List<String> leaks =
        TestFiles.linesContaining(env.rig.dir.resolve("logs"), List.of(name, text));
    leaks = new java.util.ArrayList<>(leaks);
    leaks.addAll(TestFiles.linesContaining(env.rig.clamd.logFile(), List.of(name, text)));
    assertThat(leaks).as("log lines with the canary").isEmpty();
  }

  private Connection otherConnection() throws Exception {
    return new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(
            env.rig.artemisUrl())
        .createConnection();
  }

  private long brokerDlqCount() throws Exception {
    try (Connection connection = otherConnection()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      connection.start();
      try (var browser = session.createBrowser(session.createQueue("DLQ"))) {
        return java.util.Collections.list(browser.getEnumeration()).size();
      }
    }
  }

  /** STOMP-style property names and a bytes value, which JMS cannot set (Artemis' Core API can). */
  private static jakarta.jms.Message foreign(jakarta.jms.Message message) {
    ClientMessage core = ((ActiveMQMessage) message).getCoreMessage();
    core.putStringProperty(SimpleString.of("destination-type"), SimpleString.of("ANYCAST"));
    core.putStringProperty(SimpleString.of("content-type"), SimpleString.of("text/plain"));
    core.putBytesProperty(SimpleString.of("rawBytes"), new byte[] {1, 2, 3});
    return message;
  }

  private void fillTheFullReplyQueue() throws Exception {
    try (Connection connection = otherConnection()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      MessageProducer producer =
          session.createProducer(session.createQueue(ArtemisBrokerMain.FULL_REPLIES));
      try {
        producer.send(session.createTextMessage("fills the queue"));
      } catch (jakarta.jms.JMSException alreadyFull) {
        // an earlier run filled it
      }
    }
  }

  private static BytesMessage bytes(Session session, String text, jakarta.jms.Destination replyTo)
      throws jakarta.jms.JMSException {
    BytesMessage message = session.createBytesMessage();
    message.writeBytes(("harmless " + text).getBytes(StandardCharsets.US_ASCII));
    message.setJMSReplyTo(replyTo);
    return message;
  }

  private static BytesMessage named(BytesMessage message, String name)
      throws jakarta.jms.JMSException {
    message.setStringProperty(WireNames.FILENAME, name);
    return message;
  }

  private static BytesMessage hugeClientId(Session session, String text)
      throws jakarta.jms.JMSException {
    BytesMessage message = bytes(session, text, null);
    message.setStringProperty(WireNames.CLIENT_ID, "c".repeat(40_000));
    return message;
  }

  private static BytesMessage garbageHeaders(Session session, String text)
      throws jakarta.jms.JMSException {
    BytesMessage message = session.createBytesMessage();
    message.writeBytes(("harmless, odd headers " + text).getBytes(StandardCharsets.US_ASCII));
    message.setIntProperty(WireNames.FILENAME, 42);
    message.setBooleanProperty(WireNames.CLIENT_ID, true);
    message.setStringProperty("xGarbage", "\u0000\uFFFF".repeat(500));
    return message;
  }
}
