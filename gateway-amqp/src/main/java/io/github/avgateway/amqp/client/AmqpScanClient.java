package io.github.avgateway.amqp.client;

import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.wire.ScanResultJson;
import io.github.avgateway.core.wire.WireNames;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.AsyncRabbitTemplate;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * Sends files to an AMQP gateway and returns its verdicts, using RabbitMQ's direct reply-to (no
 * reply queue to declare). Each request gets a fresh {@code message_id} and {@code correlation_id};
 * the future completes with the gateway's {@link ScanResult}, or exceptionally when no reply came
 * within the timeout, the request queue does not exist, or the reply was not a gateway reply.
 * Thread-safe; close it to release its consumers (and its connection, if it made one).
 */
public final class AmqpScanClient implements AutoCloseable {

  private final AsyncRabbitTemplate template;
  private final String requestQueue;
  private final CachingConnectionFactory ownedFactory;

  /**
   * A client on an existing connection factory (which must have publisher returns enabled for a
   * missing request queue to fail fast instead of timing out).
   */
  public AmqpScanClient(
      ConnectionFactory connectionFactory, String requestQueue, Duration timeout) {
    this(connectionFactory, requestQueue, timeout, null);
  }

  private AmqpScanClient(
      ConnectionFactory factory, String queue, Duration timeout, CachingConnectionFactory owned) {
    RabbitTemplate rabbit = new RabbitTemplate(factory);
    this.template = new AsyncRabbitTemplate(rabbit);
    this.template.setReceiveTimeout(timeout.toMillis());
    this.template.setMandatory(true);
    this.template.start();
    this.requestQueue = queue;
    this.ownedFactory = owned;
  }

  /**
   * A client with a connection of its own to {@code uri} (e.g. {@code
   * amqp://user:secret@127.0.0.1:5672/vhost}, {@code amqps://...} for TLS). Over TLS the broker's
   * certificate must be trusted by the JVM's default trust store ({@code
   * -Djavax.net.ssl.trustStore}) and match the URI's host.
   */
  public static AmqpScanClient connect(URI uri, String requestQueue, Duration timeout) {
    try {
      return connect(uri, SSLContext.getDefault(), requestQueue, timeout);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no default TLS context", e);
    }
  }

  /**
   * A client with a connection of its own to {@code uri}; an {@code amqps} URI connects with {@code
   * tls} and checks that the broker's certificate matches the URI's host.
   */
  public static AmqpScanClient connect(
      URI uri, SSLContext tls, String requestQueue, Duration timeout) {
    CachingConnectionFactory factory = new CachingConnectionFactory(uri);
    if ("amqps".equalsIgnoreCase(uri.getScheme())) {
      // The URI alone would make the RabbitMQ client trust every certificate.
      factory.getRabbitConnectionFactory().useSslProtocol(tls);
      factory.getRabbitConnectionFactory().enableHostnameVerification();
    }
    factory.setPublisherReturns(true);
    return new AmqpScanClient(factory, requestQueue, timeout, factory);
  }

  /** Scans {@code bytes}; {@code filename} (may be null) becomes the {@code avFilename} header. */
  public CompletableFuture<ScanResult> scan(byte[] bytes, String filename) {
    MessageProperties props = new MessageProperties();
    props.setMessageId(UUID.randomUUID().toString());
    props.setCorrelationId(UUID.randomUUID().toString());
    props.setContentType(MessageProperties.CONTENT_TYPE_BYTES);
    props.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
    if (filename != null) {
      props.setHeader(WireNames.FILENAME, filename);
    }
    return template
        .sendAndReceive("", requestQueue, new Message(bytes, props))
        .thenApply(reply -> ScanResultJson.decode(reply.getBody()));
  }

  /** Scans a file, named by its own file name. */
  public CompletableFuture<ScanResult> scan(Path file) throws IOException {
    Path name = file.getFileName();
    return scan(file, name == null ? null : name.toString());
  }

  /** Scans a file (read whole: an AMQP message carries the file in one piece). */
  public CompletableFuture<ScanResult> scan(Path file, String filename) throws IOException {
    return scan(Files.readAllBytes(file), filename);
  }

  /** Scans what {@code in} yields, read to its end (not closed). */
  public CompletableFuture<ScanResult> scan(InputStream in, String filename) throws IOException {
    return scan(in.readAllBytes(), filename);
  }

  @Override
  public void close() {
    template.stop();
    if (ownedFactory != null) {
      ownedFactory.destroy();
    }
  }
}
