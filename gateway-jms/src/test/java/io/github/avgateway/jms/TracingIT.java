package io.github.avgateway.jms;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.testing.AbstractTracingTests;
import io.github.avgateway.core.testing.ExampleCallers;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.testing.ZipkinServer;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Tracing against a real Zipkin server: the JMS gateway (embedded Artemis, real clamd, embedded
 * Solr) with tracing on and every trace sampled, and the Node.js example caller (rhea, AMQP 1.0)
 * sending a file inside its own span. Zipkin holds one trace with the caller's span and the
 * gateway's, correctly parented; a malformed traceparent is scanned as usual in a new trace; a
 * dead-letter and a clean-pipe forward carry the gateway's context.
 */
@SpringBootTest(classes = GatewayJmsApplication.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TracingIT extends AbstractTracingTests {

  private static final String INBOX = "tracing.pipe.inbox";
  private static final String CLEAN = "tracing.pipe.clean";
  private static final String DEAD_LETTERS = "tracing.dead-letters";
  private static final long WAIT_MS = 30_000;
  private static ZipkinServer zipkin;
  private static int port;

  @DynamicPropertySource
  static void gateway(DynamicPropertyRegistry registry) throws IOException {
    zipkin = ZipkinServer.start();
    port = TestEnv.freePort();
    Path data = Files.createTempDirectory("avgw-jms-tracing");
    registry.add("avgateway.jms.url", () -> "tcp://127.0.0.1:" + port);
    registry.add("avgateway.jms.embedded.data-dir", () -> data.resolve("artemis").toString());
    registry.add("avgateway.solr.embedded.home", () -> data.resolve("solr").toString());
    registry.add("avgateway.clamd.endpoints", () -> TestEnv.clamdEndpoint());
    registry.add("management.tracing.export.enabled", () -> "true");
    registry.add("management.tracing.sampling.probability", () -> "1.0");
    registry.add("management.tracing.export.zipkin.endpoint", zipkin::spansEndpoint);
    registry.add("avgateway.jms.dead-letter-queue", () -> DEAD_LETTERS);
    registry.add("avgateway.jms.pipes[0].inbox", () -> INBOX);
    registry.add("avgateway.jms.pipes[0].clean", () -> CLEAN);
    registry.add("avgateway.jms.pipes[0].quarantine", () -> "tracing.pipe.quarantine");
    registry.add("avgateway.jms.pipes[0].rejected", () -> "tracing.pipe.rejected");
  }

  TracingIT() {
    super("node-caller", "av-gateway-jms");
  }

  @Override
  protected ZipkinServer zipkin() {
    return zipkin;
  }

  @AfterAll
  static void stopZipkin() {
    if (zipkin != null) {
      zipkin.close();
    }
  }

  @Override
  protected ExampleCallers.Run scan(Path file, String correlationId, List<String> extra) {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            file.toString(), "--port", String.valueOf(port), "--correlation-id", correlationId));
    args.addAll(extra);
    return ExampleCallers.node("amqp10-scan.js", args);
  }

  @Override
  protected String deadLetterTraceparent(String traceparent, String correlationId)
      throws Exception {
    try (Connection connection = connect()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      TextMessage request = session.createTextMessage("not a file");
      request.setJMSCorrelationID(correlationId);
      request.setJMSReplyTo(session.createTemporaryQueue());
      request.setStringProperty("traceparent", traceparent);
      String selector = "JMSCorrelationID = '" + correlationId + "'";
      return sendAndTake(session, "av.scan.requests", request, DEAD_LETTERS, selector);
    }
  }

  @Override
  protected String forwardTraceparent(String traceparent, String id) throws Exception {
    try (Connection connection = connect()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      BytesMessage file = session.createBytesMessage();
      file.writeBytes(ContractFiles.clean(System.nanoTime()));
      file.setStringProperty("fileId", id);
      file.setStringProperty("traceparent", traceparent);
      return sendAndTake(session, INBOX, file, CLEAN, "fileId = '" + id + "'");
    }
  }

  private static Connection connect() throws Exception {
    Connection connection =
        new ActiveMQConnectionFactory("tcp://127.0.0.1:" + port).createConnection();
    connection.start();
    return connection;
  }

  /** Sends {@code message} to {@code queue}; the traceparent of what {@code selector} takes. */
  private static String sendAndTake(
      Session session, String queue, Message message, String from, String selector)
      throws Exception {
    try (MessageProducer producer = session.createProducer(session.createQueue(queue));
        MessageConsumer consumer = session.createConsumer(session.createQueue(from), selector)) {
      producer.send(message);
      Message out = consumer.receive(WAIT_MS);
      if (out == null) {
        throw new AssertionError("nothing on " + from + " for " + selector);
      }
      return out.getStringProperty("traceparent");
    }
  }
}
