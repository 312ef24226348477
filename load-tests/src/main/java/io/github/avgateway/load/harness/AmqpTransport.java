package io.github.avgateway.load.harness;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import io.github.avgateway.core.model.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A caller over AMQP 0-9-1 with RabbitMQ's direct reply-to, on the plain RabbitMQ client (so the
 * driver costs as little CPU as a client can): requests published {@code mandatory} to the default
 * exchange, persistent unless asked otherwise, with a fresh {@code message_id} and {@code
 * correlation_id}; the verdict is read from the reply's {@code avVerdict} header. Several channels,
 * each with its own reply consumer, so that publishing does not serialise on one channel.
 */
public final class AmqpTransport implements Transport {

  private static final String DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";

  private final Connection connection;
  private final List<Channel> channels = new ArrayList<>();
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final String queue;
  private final boolean persistent;
  private final String prefix = UUID.randomUUID().toString().substring(0, 8) + "-";
  private volatile RequestTrace trace;

  /** A request sent and not answered yet; {@code sentMicros} is -1 unless it is traced. */
  private record Pending(CompletableFuture<Verdict> future, long sentMicros) {}

  public AmqpTransport(String host, int port, String queue, int channelCount, boolean persistent)
      throws IOException, TimeoutException {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(host);
    factory.setPort(port);
    this.connection = factory.newConnection("perf-harness-driver");
    this.queue = queue;
    this.persistent = persistent;
    for (int i = 0; i < channelCount; i++) {
      Channel channel = connection.createChannel();
      channel.basicConsume(DIRECT_REPLY_TO, true, (tag, delivery) -> answered(delivery), tag -> {});
      channel.addReturnListener(
          r -> fail(r.getProperties().getCorrelationId(), "returned: " + r.getReplyText()));
      channels.add(channel);
    }
  }

  /**
   * Traces every request sent from now on into {@code trace} ({@link RequestTrace}); null stops.
   * Tracing costs the driver two clock readings per request, and it keeps each reply's body for the
   * trace to decode after the cell.
   */
  void trace(RequestTrace trace) {
    this.trace = trace;
  }

  @Override
  public CompletableFuture<Verdict> send(byte[] payload) {
    long n = sequence.incrementAndGet();
    String id = prefix + n;
    CompletableFuture<Verdict> future = new CompletableFuture<>();
    pending.put(id, new Pending(future, trace == null ? -1 : RequestTrace.wallMicros()));
    AMQP.BasicProperties props =
        new AMQP.BasicProperties.Builder()
            .messageId(id)
            .correlationId(id)
            .replyTo(DIRECT_REPLY_TO)
            .contentType("application/octet-stream")
            .deliveryMode(persistent ? 2 : 1)
            .build();
    Channel channel = channels.get((int) (n % channels.size()));
    try {
      synchronized (channel) {
        channel.basicPublish("", queue, true, props, payload);
      }
    } catch (IOException e) {
      pending.remove(id);
      future.completeExceptionally(new UncheckedIOException(e));
    }
    return future.whenComplete((v, e) -> pending.remove(id));
  }

  private void answered(Delivery delivery) {
    String id = delivery.getProperties().getCorrelationId();
    Pending sent = id == null ? null : pending.remove(id);
    if (sent == null) {
      return;
    }
    RequestTrace tracing = trace;
    if (sent.sentMicros() >= 0 && tracing != null) {
      tracing.replied(sent.sentMicros(), delivery.getBody());
    }
    CompletableFuture<Verdict> future = sent.future();
    Map<String, Object> headers = delivery.getProperties().getHeaders();
    Object verdict = headers == null ? null : headers.get("avVerdict");
    try {
      future.complete(Verdict.valueOf(String.valueOf(verdict)));
    } catch (IllegalArgumentException e) {
      future.completeExceptionally(e);
    }
  }

  private void fail(String correlationId, String why) {
    Pending sent = correlationId == null ? null : pending.remove(correlationId);
    if (sent != null) {
      sent.future().completeExceptionally(new IllegalStateException(why));
    }
  }

  @Override
  public void close() {
    try {
      connection.close(2000);
    } catch (IOException e) {
      // closing anyway
    }
  }
}
