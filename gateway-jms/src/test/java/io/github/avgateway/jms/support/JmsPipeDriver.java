package io.github.avgateway.jms.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.contract.PipeDriver;
import io.github.avgateway.core.contract.PipeMessage;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.jms.reply.JmsWire;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueRequestor;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.activemq.artemis.api.jms.ActiveMQJMSClient;
import org.apache.activemq.artemis.api.jms.management.JMSManagementHelper;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The clean-pipe contract's view of the JMS gateway, through Artemis' own JMS client: files are
 * sent to a pipe's inbox as persistent {@code BytesMessage}s with priority 7, type {@code upload}
 * and an int property, found again by a {@code JMSCorrelationID} selector; a malformed file is a
 * {@code TextMessage}; the allowed reply destination is a temporary queue, the refused one the
 * pipe's clean queue (one of the gateway's own); an outlet is removed with the broker's {@code
 * destroyQueue} on its management address.
 */
public final class JmsPipeDriver implements PipeDriver {

  private static final int PRIORITY = 7;

  private final ActiveMQConnectionFactory factory;
  private final Map<Pipe, List<String>> pipes;
  private final String deadLetterQueue;
  private final int maxSizeBytes;
  private final Function<String, Optional<MessageInfo>> history;
  private final Connection connection;
  private final Session session;
  private final TemporaryQueue replies;

  /**
   * @param pipes each pipe's queues: inbox, clean, quarantine, rejected
   * @param history looks up the visible history document of a request id of this transport
   */
  public JmsPipeDriver(
      ActiveMQConnectionFactory factory,
      Map<Pipe, List<String>> pipes,
      String deadLetterQueue,
      int maxSizeBytes,
      Function<String, Optional<MessageInfo>> history)
      throws Exception {
    this.factory = factory;
    this.pipes = Map.copyOf(pipes);
    this.deadLetterQueue = deadLetterQueue;
    this.maxSizeBytes = maxSizeBytes;
    this.history = history;
    this.connection = factory.createConnection();
    this.session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    this.replies = session.createTemporaryQueue();
    connection.start();
  }

  @Override
  public int maxSizeBytes() {
    return maxSizeBytes;
  }

  @Override
  public String send(
      Pipe pipe, byte[] body, String correlationId, Map<String, String> properties, ReplyTo replyTo)
      throws Exception {
    BytesMessage file = session.createBytesMessage();
    file.writeBytes(body);
    file.setJMSCorrelationID(correlationId);
    for (Map.Entry<String, String> property : properties.entrySet()) {
      file.setStringProperty(property.getKey(), property.getValue());
    }
    file.setIntProperty("attempt", 3);
    file.setJMSType("upload");
    switch (replyTo) {
      case NONE -> {}
      case ALLOWED -> file.setJMSReplyTo(replies);
      case REFUSED -> file.setJMSReplyTo(session.createQueue(queue(pipe, Outlet.CLEAN)));
    }
    put(inbox(pipe), file);
    return file.getJMSMessageID();
  }

  @Override
  public String sendMalformed(String correlationId) throws Exception {
    Message text = session.createTextMessage("not a file");
    text.setJMSCorrelationID(correlationId);
    put(inbox(Pipe.UPLOADS), text);
    return text.getJMSMessageID();
  }

  @Override
  public PipeMessage take(Pipe pipe, Outlet outlet, String correlationId, Duration wait)
      throws Exception {
    return take(session.createQueue(queue(pipe, outlet)), correlationId, wait);
  }

  @Override
  public int count(Outlet outlet, String correlationId) throws Exception {
    try (QueueBrowser browser =
        session.createBrowser(
            session.createQueue(queue(Pipe.UPLOADS, outlet)), selector(correlationId))) {
      return Collections.list(browser.getEnumeration()).size();
    }
  }

  @Override
  public PipeMessage takeReply(String correlationId, Duration wait) throws Exception {
    return take(replies, correlationId, wait);
  }

  @Override
  public String removeBrokenCleanOutlet() throws Exception {
    String queue = queue(Pipe.BROKEN, Outlet.CLEAN);
    try (var managed = factory.createQueueConnection()) {
      QueueSession managing = managed.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
      QueueRequestor requestor =
          new QueueRequestor(managing, ActiveMQJMSClient.createQueue("activemq.management"));
      managed.start();
      Message request = managing.createMessage();
      JMSManagementHelper.putOperationInvocation(
          request, ResourceNames.BROKER, "destroyQueue", queue, true, true);
      Message reply = requestor.request(request);
      assertThat(JMSManagementHelper.hasOperationSucceeded(reply))
          .as("destroyQueue " + queue + ": " + JMSManagementHelper.getResult(reply))
          .isTrue();
    }
    return queue;
  }

  @Override
  public void assertProducerFieldsKept(PipeMessage forwarded) throws Exception {
    Message message = (Message) forwarded.transportMessage();
    assertThat(message.getIntProperty("attempt")).isEqualTo(3);
    assertThat(message.getJMSType()).isEqualTo("upload");
    assertThat(message.getJMSPriority()).isEqualTo(PRIORITY);
    assertThat(message.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
  }

  @Override
  public Optional<MessageInfo> history(String requestId) {
    return history.apply(requestId);
  }

  @Override
  public void close() throws Exception {
    connection.close();
  }

  private void put(String queue, Message message) throws Exception {
    try (MessageProducer producer = session.createProducer(session.createQueue(queue))) {
      producer.send(message, DeliveryMode.PERSISTENT, PRIORITY, 0);
    }
  }

  /** Takes the message of {@code correlationId} off {@code queue}; its body is read meanwhile. */
  private PipeMessage take(jakarta.jms.Destination queue, String correlationId, Duration wait)
      throws Exception {
    try (MessageConsumer consumer = session.createConsumer(queue, selector(correlationId))) {
      Message message = consumer.receive(wait.toMillis());
      assertThat(message).as("a message %s on %s", correlationId, queue).isNotNull();
      return new PipeMessage(
          body(message), strings(message), message.getStringProperty(JmsWire.REQUEST_ID), message);
    }
  }

  private String inbox(Pipe pipe) {
    return pipes.get(pipe).get(0);
  }

  private String queue(Pipe pipe, Outlet outlet) {
    return switch (outlet) {
      case CLEAN -> pipes.get(pipe).get(1);
      case QUARANTINE -> pipes.get(pipe).get(2);
      case REJECTED -> pipes.get(pipe).get(3);
      case DEAD_LETTER -> deadLetterQueue;
    };
  }

  private static Map<String, String> strings(Message message) throws Exception {
    Map<String, String> properties = new HashMap<>();
    for (Object name : Collections.list(message.getPropertyNames())) {
      Object value = message.getObjectProperty((String) name);
      if (value != null) {
        properties.put((String) name, value.toString());
      }
    }
    return properties;
  }

  private static byte[] body(Message message) throws Exception {
    if (!(message instanceof BytesMessage bytes)) {
      return new byte[0];
    }
    byte[] body = new byte[(int) bytes.getBodyLength()];
    bytes.readBytes(body);
    return body;
  }

  private static String selector(String correlationId) {
    return "JMSCorrelationID = '" + correlationId + "'";
  }
}
