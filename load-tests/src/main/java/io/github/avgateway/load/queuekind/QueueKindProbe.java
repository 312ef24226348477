package io.github.avgateway.load.queuekind;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.github.avgateway.core.fault.PrivateRabbit;
import io.github.avgateway.core.wire.HistoryMessages;
import io.github.avgateway.load.HistoryDocuments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What one history message costs RabbitMQ on a quorum queue (as {@code av.history} is declared)
 * against a stream, on a node of its own ({@link PrivateRabbit}, so no other work is counted): a
 * publisher with confirms (up to 8 unconfirmed, as the history buffer has a few on their way) and
 * one consumer taking them in batches of 64 with a multiple ack (as the indexer does), for history
 * messages of 16 and 128 documents. Prints the node's CPU per message and per document (utime +
 * stime of its {@code beam.smp} from {@code /proc}) and whether the node accepts the history
 * queue's bound ({@code x-overflow=reject-publish}) on a stream.
 *
 * <p>Usage: {@code QueueKindProbe MESSAGES OUTPUT_FILE}. Bounded: each round waits at most 5
 * minutes for its messages.
 */
public final class QueueKindProbe {

  private static final int WINDOW = 8;
  private static final int PREFETCH = 64;

  private QueueKindProbe() {}

  public static void main(String[] args) throws Exception {
    int messages = Integer.parseInt(args[0]);
    Path out = Path.of(args[1]);
    List<String> lines = new ArrayList<>();
    try (PrivateRabbit rabbit = PrivateRabbit.start()) {
      long beam = Long.parseLong(rabbit.ctl("eval", "os:getpid().").replaceAll("[^0-9]", ""));
      ConnectionFactory factory = new ConnectionFactory();
      factory.setHost("127.0.0.1");
      factory.setPort(rabbit.amqpPort());
      try (Connection connection = factory.newConnection()) {
        lines.add("# " + rabbit + ", beam.smp pid " + beam + ", " + messages + " messages a round");
        lines.add("stream with x-overflow=reject-publish: " + streamOverflow(connection));
        for (int round = 1; round <= 2; round++) {
          for (int documents : new int[] {16, 128}) {
            for (String kind : List.of("quorum", "stream")) {
              lines.add(round(connection, beam, kind, documents, messages, round));
              System.out.println(lines.getLast());
            }
          }
        }
      }
    }
    Files.write(out, lines);
  }

  /** Whether the node accepts a stream declared with the history queue's overflow policy. */
  private static String streamOverflow(Connection connection) throws IOException {
    try (Channel channel = connection.createChannel()) {
      channel.queueDeclare(
          "probe.stream.overflow",
          true,
          false,
          false,
          Map.of("x-queue-type", "stream", "x-overflow", "reject-publish"));
      channel.queueDelete("probe.stream.overflow");
      return "accepted";
    } catch (IOException | RuntimeException e) {
      return "refused: " + rootMessage(e);
    } catch (java.util.concurrent.TimeoutException e) {
      return "no answer";
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return String.valueOf(cause.getMessage()).replace('\n', ' ');
  }

  private static String round(
      Connection connection, long beam, String kind, int documents, int messages, int round)
      throws Exception {
    String queue = "probe." + kind + "." + documents + "." + round;
    byte[] body = body(documents);
    try (Channel publisher = connection.createChannel();
        Channel consumer = connection.createChannel()) {
      publisher.queueDeclare(queue, true, false, false, arguments(kind));
      CountDownLatch consumed = new CountDownLatch(messages);
      consume(consumer, queue, kind, consumed);
      long cpuBefore = cpuTicks(beam);
      long start = System.nanoTime();
      publish(publisher, queue, body, messages);
      boolean done = consumed.await(5, TimeUnit.MINUTES);
      long nanos = System.nanoTime() - start;
      double cpuMicros = (cpuTicks(beam) - cpuBefore) * 1_000_000.0 / 100;
      publisher.queueDelete(queue);
      return String.format(
          Locale.ROOT,
          "round %d %-6s %3d documents, %6d bytes: %s in %.1f s; RabbitMQ CPU %.0f us/message,"
              + " %.1f us/document",
          round,
          kind,
          documents,
          body.length,
          done ? "all consumed" : "NOT ALL CONSUMED",
          nanos / 1e9,
          cpuMicros / messages,
          cpuMicros / messages / documents);
    }
  }

  private static Map<String, Object> arguments(String kind) {
    if (kind.equals("stream")) {
      return Map.of("x-queue-type", "stream", "x-max-length-bytes", 2_000_000_000L);
    }
    return Map.of(
        "x-queue-type",
        "quorum",
        "x-max-length-bytes",
        2_000_000_000L,
        "x-max-length",
        1_000_000L,
        "x-overflow",
        "reject-publish");
  }

  /** A history message of {@code documents} documents as a busy gateway writes them. */
  private static byte[] body(int documents) {
    return HistoryMessages.encode(
        HistoryDocuments.batch(documents, Instant.parse("2026-11-27T09:00:00.123456Z")));
  }

  private static void publish(Channel channel, String queue, byte[] body, int messages)
      throws Exception {
    channel.confirmSelect();
    AMQP.BasicProperties props =
        new AMQP.BasicProperties.Builder()
            .deliveryMode(2)
            .contentType(HistoryMessages.CONTENT_TYPE)
            .build();
    for (int sent = 0; sent < messages; ) {
      int burst = Math.min(WINDOW, messages - sent);
      for (int i = 0; i < burst; i++) {
        channel.basicPublish("", queue, true, props, body);
      }
      channel.waitForConfirmsOrDie(60_000);
      sent += burst;
    }
  }

  private static void consume(Channel channel, String queue, String kind, CountDownLatch consumed)
      throws IOException {
    channel.basicQos(PREFETCH);
    Map<String, Object> args =
        kind.equals("stream") ? Map.of("x-stream-offset", "first") : Map.of();
    channel.basicConsume(
        queue,
        false,
        args,
        new DefaultConsumer(channel) {
          private int unacked;

          @Override
          public void handleDelivery(
              String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
              throws IOException {
            consumed.countDown();
            if (++unacked == PREFETCH || consumed.getCount() == 0) {
              getChannel().basicAck(envelope.getDeliveryTag(), true);
              unacked = 0;
            }
          }
        });
  }

  /** utime + stime of {@code pid} in clock ticks (100 a second on Linux). */
  private static long cpuTicks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
