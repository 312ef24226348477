package io.github.avgateway.jms.client;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.wire.WireNames;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * Sends files to an av-gateway over JMS and completes each {@link #scan} future with the gateway's
 * verdict. Replies come back on a temporary queue this client owns, matched by a correlation id the
 * client sets on every request; a future that got no reply within the timeout fails with a {@link
 * java.util.concurrent.TimeoutException}. Requests are persistent: {@code scan} returns once the
 * broker has stored the request. Thread-safe; up to eight callers send at the same time.
 */
public final class AvScanClient implements AutoCloseable {

  /** Artemis streams a body from this property's InputStream instead of holding it in memory. */
  private static final String ARTEMIS_INPUT_STREAM = "JMS_AMQ_InputStream";

  /** Sessions that send requests; concurrent callers use several, so the broker syncs together. */
  private static final int SENDERS = 8;

  private record Sender(Session session, MessageProducer producer) {}

  private final Connection connection;
  private final BlockingQueue<Sender> senders = new ArrayBlockingQueue<>(SENDERS);
  private final TemporaryQueue replyQueue;
  private final PendingReplies pending = new PendingReplies();
  private final Duration timeout;

  private AvScanClient(Connection connection, String requestQueue, Duration timeout)
      throws JMSException {
    this.connection = connection;
    this.timeout = timeout;
    for (int i = 0; i < SENDERS; i++) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      MessageProducer producer = session.createProducer(session.createQueue(requestQueue));
      producer.setDeliveryMode(DeliveryMode.PERSISTENT);
      senders.add(new Sender(session, producer));
    }
    Session receiveSession = connection.createSession(Session.AUTO_ACKNOWLEDGE);
    this.replyQueue = receiveSession.createTemporaryQueue();
    receiveSession.createConsumer(replyQueue).setMessageListener(pending::onReply);
    connection.start();
  }

  /**
   * A client of the gateway listening on {@code requestQueue} of the broker {@code factory}
   * connects to.
   *
   * @param timeout how long each scan may take, sending included
   */
  public static AvScanClient connect(
      ConnectionFactory factory, String requestQueue, Duration timeout) throws JMSException {
    Connection connection = factory.createConnection();
    try {
      return new AvScanClient(connection, requestQueue, timeout);
    } catch (JMSException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** A client of an Artemis broker at {@code url} (e.g. {@code tcp://127.0.0.1:61616}). */
  public static AvScanClient connect(
      String url, String user, String password, String requestQueue, Duration timeout)
      throws JMSException {
    ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(url, user, password);
    return connect(factory, requestQueue, timeout);
  }

  /** Scans {@code content}; {@code filename} (may be null) goes along as {@code avFilename}. */
  public CompletableFuture<ScanResult> scan(byte[] content, String filename) {
    return send(filename, message -> message.writeBytes(content));
  }

  /** Scans the file at {@code file}, streamed rather than read into memory. */
  public CompletableFuture<ScanResult> scan(Path file, String filename) {
    // The file is read while the request is sent, so it may be closed once scan(...) returns.
    try (InputStream in = Files.newInputStream(file)) {
      return scan(in, filename);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Scans what {@code content} yields up to its end, streamed; the stream is read before this
   * method returns, and not closed.
   */
  public CompletableFuture<ScanResult> scan(InputStream content, String filename) {
    return send(filename, message -> message.setObjectProperty(ARTEMIS_INPUT_STREAM, content));
  }

  private interface Body {
    void write(BytesMessage message) throws JMSException;
  }

  private CompletableFuture<ScanResult> send(String filename, Body body) {
    String correlationId = "avc-" + UUID.randomUUID();
    CompletableFuture<ScanResult> result = pending.expect(correlationId);
    Sender sender = null;
    try {
      sender = senders.take();
      BytesMessage message = sender.session().createBytesMessage();
      message.setJMSCorrelationID(correlationId);
      message.setJMSReplyTo(replyQueue);
      if (filename != null) {
        message.setStringProperty(WireNames.FILENAME, filename);
      }
      body.write(message);
      sender.producer().send(message);
    } catch (JMSException | RuntimeException e) {
      pending.fail(correlationId, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pending.fail(correlationId, e);
    } finally {
      if (sender != null) {
        senders.add(sender);
      }
    }
    return result.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Closes the connection; scans still waiting fail. */
  @Override
  public void close() throws JMSException {
    try {
      connection.close();
    } finally {
      pending.failAll(new IllegalStateException("the client was closed"));
    }
  }
}
