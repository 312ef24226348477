package io.github.avgateway.jms.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.contract.AbstractBadInputFaultContractTests;
import io.github.avgateway.core.contract.BadInputDriver;
import io.github.avgateway.core.contract.FaultDriver;
import io.github.avgateway.core.fault.Expected;
import io.github.avgateway.core.fault.FaultPayloads;
import io.github.avgateway.core.fault.FaultReport;
import io.github.avgateway.core.fault.FaultReport.Duplicates;
import io.github.avgateway.core.model.DeadLetterReason;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad input on JMS (issue 8, scenarios 13–19 and 21; issue 24, properties JMS cannot set), amid
 * ordinary load on the gateway in the test JVM on external Artemis ({@link FaultEnvironment}): the
 * shared bad-input contract ({@link AbstractBadInputFaultContractTests}: payload over the limit,
 * nested-archive bomb, encrypted archive, a poison request, refused and deleted reply destinations,
 * a canary that must reach no log, the gateway's own loggers at DEBUG), and what only JMS has:
 * message types that are no file, properties of odd types, a client id of 40,000 characters, a
 * request without {@code JMSMessageID}, and properties JMS cannot set (put through Artemis' Core
 * API), which must be dead-lettered once and never looped into Artemis' own DLQ.
 */
@ExtendWith(AbstractJmsFaultIT.Environment.class)
class JmsBadInputFaultIT extends AbstractBadInputFaultContractTests {

  private FaultEnvironment env;
  private BadInputDriver driver;

  @BeforeAll
  void start(FaultEnvironment environment) {
    env = environment;
    driver = new Driver();
  }

  @BeforeEach
  void everythingServes() {
    env.awaitIntakeOpen();
  }

  @Override
  protected BadInputDriver badInputDriver() {
    return driver;
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

  /** The shared environment's client and in-process gateway as the bad-input contract sees them. */
  private final class Driver implements BadInputDriver {

    @Override
    public FaultDriver.Run run(String scenario) {
      return new FaultRun(env, scenario);
    }

    @Override
    public void sendPoison(FaultDriver.Run run) throws Exception {
      fillTheFullReplyQueue();
      FaultRun jms = (FaultRun) run;
      byte[] clean = FaultPayloads.clean(jms.prefix, -1);
      jms.send(
          Expected.deadLetter(DeadLetterReason.DELIVERY_LIMIT_EXCEEDED, Verdict.ERROR, false),
          session -> {
            BytesMessage message = session.createBytesMessage();
            message.writeBytes(clean);
            message.setJMSReplyTo(ActiveMQDestination.createQueue(ArtemisBrokerMain.FULL_REPLIES));
            return message;
          });
    }

    @Override
    public int sendRefusedReplyDestinations(FaultDriver.Run run, byte[] body, String filename) {
      FaultRun jms = (FaultRun) run;
      Expected refused =
          Expected.deadLetter(DeadLetterReason.REPLY_DESTINATION_NOT_ALLOWED, Verdict.ERROR, false);
      List<jakarta.jms.Destination> destinations =
          List.of(
              ActiveMQDestination.createQueue(ArtemisBrokerMain.REQUESTS),
              ActiveMQDestination.createQueue("orders.incoming"),
              ActiveMQDestination.createTopic("av.reply.topic"));
      for (var spoofed : destinations) {
        jms.send(
            refused,
            session -> {
              BytesMessage message = session.createBytesMessage();
              message.writeBytes(body);
              message.setJMSReplyTo(spoofed);
              return filename == null ? message : named(message, filename);
            });
      }
      return destinations.size();
    }

    @Override
    public int sendReplyDestinationsGone(FaultDriver.Run run) throws Exception {
      FaultRun jms = (FaultRun) run;
      Expected unroutable =
          Expected.deadLetter(DeadLetterReason.REPLY_UNROUTABLE, Verdict.CLEAN, false);
      try (Connection other = otherConnection()) {
        Session session = other.createSession(Session.AUTO_ACKNOWLEDGE);
        TemporaryQueue gone = session.createTemporaryQueue();
        gone.delete();
        jms.send(unroutable, s -> bytes(s, jms.prefix, gone));
      }
      jms.send(
          unroutable, s -> bytes(s, jms.prefix, ActiveMQDestination.createQueue("av.reply.gone")));
      return 2;
    }

    @Override
    public void sendMalformed(FaultDriver.Run run, String text) {
      ((FaultRun) run)
          .send(
              Expected.deadLetter(DeadLetterReason.MALFORMED_REQUEST, Verdict.ERROR, false),
              session -> session.createTextMessage(text));
    }

    @Override
    public Duplicates afterFailedBatch() {
      return Duplicates.EXPLAINED_BY_REDELIVERY;
    }

    @Override
    public List<Path> logs() {
      return List.of(env.rig.dir.resolve("logs"), env.rig.clamd.logFile());
    }

    @Override
    public AutoCloseable debugLogging() {
      return env.logs.debug();
    }
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
