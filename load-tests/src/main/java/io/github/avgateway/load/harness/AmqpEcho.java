package io.github.avgateway.load.harness;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 */
final class AmqpEcho implements AutoCloseable {

  private final Connection connection;
  private final List<Thread> workers = new ArrayList<>();
  private volatile boolean running = true;

  AmqpEcho(
      String host,
      int port,
      String queue,
      boolean quorum,
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
    }
    for (int i = 0; i < consumers; i++) {
      Channel channel = connection.createChannel();
      channel.basicQos(prefetch);
      channel.confirmSelect();
      BlockingQueue<Delivery> inbox = new LinkedBlockingQueue<>();
      channel.basicConsume(queue, false, (tag, d) -> inbox.add(d), tag -> {});
      Thread worker =
          Thread.ofPlatform()
              .name("echo-" + i)
              .start(() -> work(channel, inbox, batchSize, batchWaitMillis));
      workers.add(worker);
    }
  }

  private void work(Channel channel, BlockingQueue<Delivery> inbox, int size, long waitMillis) {
    List<Delivery> batch = new ArrayList<>(size);
    try {
      while (running) {
        Delivery first = inbox.poll(500, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
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
        channel.basicAck(batch.get(batch.size() - 1).getEnvelope().getDeliveryTag(), true);
      }
    } catch (IOException | TimeoutException | RuntimeException e) {
      if (running) {
        System.err.println("echo worker failed: " + e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
