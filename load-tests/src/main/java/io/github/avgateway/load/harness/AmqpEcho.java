package io.github.avgateway.load.harness;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import io.github.avgateway.core.wire.HistoryMessages;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The RabbitMQ ceiling: request/reply with nothing in between, and the gateway's delivery
 * guarantees. A durable quorum queue (or classic, for the non-durable comparison); {@code
 * consumers} consumers, each with prefetch and manual acknowledgement; each takes a batch (taking
 * more for at most {@code batchWait} after the first, as the gateway's listener does), publishes
 * one reply per request to its {@code reply_to}, waits for the publisher confirms, then
 * acknowledges the batch at once.
 *
 * <p>With history ({@code withHistory}) it also does what the gateway's batch does on the broker
 * for its history: after the replies' confirms, one history message of the batch's documents to a
 * bounded quorum queue ({@link EchoReply#HISTORY_QUEUE}, declared as the gateway declares its own),
 * on a channel of its own, and the batch is acknowledged once that message is confirmed while the
 * consumer goes on to its next batch; one drainer takes the history queue in batches of up to 64
 * (waiting 200 ms for more) and acknowledges each batch, as the gateway's indexer does once its
 * store accepted it. Only scanning and the store are left out.
 */
final class AmqpEcho implements AutoCloseable {

  private static final long HISTORY_MAX_MESSAGES = 1_000_000;
  private static final long HISTORY_MAX_BYTES = 2L << 30;
  private static final int DRAIN_BATCH = EchoReply.MAX_BATCH;
  private static final long DRAIN_WAIT_MILLIS = 200;

  private final Connection connection;
  private final List<Thread> workers = new ArrayList<>();
  private volatile boolean running = true;

  AmqpEcho(
      String host,
      int port,
      String queue,
      boolean quorum,
      boolean withHistory,
      int consumers,
      int prefetch,
      int batchSize,
      long batchWaitMillis)
      throws IOException, TimeoutException {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(host);
    factory.setPort(port);
    connection = factory.newConnection("perf-harness-echo");
    try (Channel admin = connection.createChannel()) {
      admin.queueDelete(queue);
      Map<String, Object> args = quorum ? Map.of("x-queue-type", "quorum") : Map.of();
      admin.queueDeclare(queue, true, false, false, args);
      if (withHistory) {
        admin.queueDelete(EchoReply.HISTORY_QUEUE);
        admin.queueDeclare(
            EchoReply.HISTORY_QUEUE,
            true,
            false,
            false,
            Map.of(
                "x-queue-type",
                "quorum",
                "x-max-length",
                HISTORY_MAX_MESSAGES,
                "x-max-length-bytes",
                HISTORY_MAX_BYTES,
                "x-overflow",
                "reject-publish"));
      }
    }
    for (int i = 0; i < consumers; i++) {
      Channel channel = connection.createChannel();
      channel.basicQos(prefetch);
      channel.confirmSelect();
      HistoryLine history = withHistory ? new HistoryLine(connection, channel) : null;
      BlockingQueue<Delivery> inbox = new LinkedBlockingQueue<>();
      channel.basicConsume(queue, false, (tag, d) -> inbox.add(d), tag -> {});
      workers.add(
          Thread.ofPlatform()
              .name("echo-" + i)
              .start(() -> work(channel, history, inbox, batchSize, batchWaitMillis)));
    }
    if (withHistory) {
      Channel drain = connection.createChannel();
      drain.basicQos(DRAIN_BATCH);
      BlockingQueue<Delivery> inbox = new LinkedBlockingQueue<>();
      drain.basicConsume(EchoReply.HISTORY_QUEUE, false, (tag, d) -> inbox.add(d), tag -> {});
      workers.add(Thread.ofPlatform().name("echo-history-drain").start(() -> drain(drain, inbox)));
    }
  }

  private void work(
      Channel channel,
      HistoryLine history,
      BlockingQueue<Delivery> inbox,
      int size,
      long waitMillis) {
    List<Delivery> batch = new ArrayList<>(size);
    try {
      while (running) {
        if (!take(inbox, batch, size, waitMillis)) {
          continue;
        }
        for (Delivery d : batch) {
          AMQP.BasicProperties in = d.getProperties();
          AMQP.BasicProperties out =
              new AMQP.BasicProperties.Builder()
                  .correlationId(in.getCorrelationId())
                  .contentType("application/json")
                  .headers(Map.of("avVerdict", "CLEAN"))
                  .build();
          channel.basicPublish("", in.getReplyTo(), false, out, EchoReply.BODY);
        }
        channel.waitForConfirmsOrDie(30_000);
        if (history == null) {
          channel.basicAck(batch.get(batch.size() - 1).getEnvelope().getDeliveryTag(), true);
        } else {
          history.publish(batch);
        }
      }
    } catch (IOException | TimeoutException | RuntimeException e) {
      if (running) {
        System.err.println("echo worker failed: " + e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The history indexer's broker side: batches of up to 64, each acknowledged at once. */
  private void drain(Channel channel, BlockingQueue<Delivery> inbox) {
    List<Delivery> batch = new ArrayList<>(DRAIN_BATCH);
    try {
      while (running) {
        if (take(inbox, batch, DRAIN_BATCH, DRAIN_WAIT_MILLIS)) {
          channel.basicAck(batch.get(batch.size() - 1).getEnvelope().getDeliveryTag(), true);
        }
      }
    } catch (IOException | RuntimeException e) {
      if (running) {
        System.err.println("echo history drainer failed: " + e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Fills {@code batch} with a first delivery (waiting up to 500 ms) and what else comes within
   * {@code waitMillis}, up to {@code size}; false when none came.
   */
  private static boolean take(
      BlockingQueue<Delivery> inbox, List<Delivery> batch, int size, long waitMillis)
      throws InterruptedException {
    Delivery first = inbox.poll(500, TimeUnit.MILLISECONDS);
    if (first == null) {
      return false;
    }
    batch.clear();
    batch.add(first);
    long fillUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    while (batch.size() < size) {
      long left = fillUntil - System.nanoTime();
      Delivery next = left > 0 ? inbox.poll(left, TimeUnit.NANOSECONDS) : inbox.poll();
      if (next == null) {
        break;
      }
      batch.add(next);
    }
    return true;
  }

  /**
   * One consumer's history messages on a channel of their own, and the acknowledgements they
   * release: a batch is acknowledged (on the consumer's channel) once its history message is
   * confirmed, with one multiple ack when every history message before it is settled too; a nack
   * requeues its batch.
   */
  private static final class HistoryLine {

    private static final AMQP.BasicProperties PROPERTIES =
        new AMQP.BasicProperties.Builder()
            .contentType(HistoryMessages.CONTENT_TYPE)
            .deliveryMode(2)
            .build();

    private final Channel consumer;
    private final Channel channel;

    /** Publish sequence number to the delivery tags of its batch, in publish order. */
    private final TreeMap<Long, long[]> waiting = new TreeMap<>();

    HistoryLine(Connection connection, Channel consumer) throws IOException {
      this.consumer = consumer;
      this.channel = connection.createChannel();
      channel.confirmSelect();
      channel.addConfirmListener(
          (seq, multiple) -> settle(seq, multiple, true),
          (seq, multiple) -> settle(seq, multiple, false));
    }

    /** Called by the consumer's thread only, so sequence numbers follow publishes. */
    void publish(List<Delivery> batch) throws IOException {
      long[] tags = batch.stream().mapToLong(d -> d.getEnvelope().getDeliveryTag()).toArray();
      synchronized (waiting) {
        waiting.put(channel.getNextPublishSeqNo(), tags);
      }
      channel.basicPublish(
          "", EchoReply.HISTORY_QUEUE, PROPERTIES, EchoReply.history(batch.size()));
    }

    /** On the connection's thread. */
    private void settle(long seq, boolean multiple, boolean confirmed) throws IOException {
      synchronized (waiting) {
        var settled = multiple ? waiting.headMap(seq, true) : waiting.subMap(seq, true, seq, true);
        if (settled.isEmpty()) {
          return;
        }
        boolean prefix = settled.firstKey().equals(waiting.firstKey());
        if (confirmed && prefix) {
          long[] last = settled.lastEntry().getValue();
          consumer.basicAck(last[last.length - 1], true);
        } else {
          for (long[] tags : settled.values()) {
            for (long tag : tags) {
              if (confirmed) {
                consumer.basicAck(tag, false);
              } else {
                consumer.basicNack(tag, false, true);
              }
            }
          }
        }
        settled.clear();
      }
    }
  }

  @Override
  public void close() throws IOException {
    running = false;
    for (Thread worker : workers) {
      try {
        worker.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    connection.close(2000);
  }
}
