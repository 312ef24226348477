package io.github.avgateway.load.history;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.wire.HistoryMessages;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts history on the indexer's queue as the AMQP gateway does: one message per consumer batch
 * ({@code perMessage} documents, encoded by the project's history message codec), persistent, with
 * publisher confirms. The documents are the benchmark's own ({@link ScaleData}), received in time
 * order over the window's last day, as a deployment's newest scans are.
 */
final class HistoryPublisher implements AutoCloseable {

  private static final int IN_FLIGHT = 256;
  private final Connection connection;
  private final Channel channel;
  private final ScaleData data;

  HistoryPublisher(String host, int port, ScaleData data) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(host);
    factory.setPort(port);
    this.connection = factory.newConnection("history-scale-publisher");
    this.channel = connection.createChannel();
    this.data = data;
    channel.queueDeclarePassive(IndexerProcess.QUEUE);
    channel.confirmSelect();
  }

  /** Empties the benchmark's own queue: what an interrupted run left would be counted again. */
  void purge() throws Exception {
    channel.queuePurge(IndexerProcess.QUEUE);
  }

  /**
   * Publishes documents {@code from} to {@code from + count - 1} of the broker's sequence and waits
   * for every confirm.
   */
  void publish(long from, long count, int perMessage) throws Exception {
    AMQP.BasicProperties properties =
        new AMQP.BasicProperties.Builder()
            .deliveryMode(2)
            .contentType(HistoryMessages.CONTENT_TYPE)
            .build();
    Instant lastDay = data.windowEnd().minus(Duration.ofDays(1));
    double stepMillis = Duration.ofDays(1).toMillis() / (double) count;
    int unconfirmed = 0;
    for (long k = from; k < from + count; k += perMessage) {
      List<MessageInfo> docs = new ArrayList<>(perMessage);
      for (long i = k; i < Math.min(k + perMessage, from + count); i++) {
        long g = ScaleState.INGESTED_BASE + i;
        Instant received = lastDay.plusMillis((long) ((i - from + 0.5) * stepMillis));
        docs.add(data.document(g, received));
      }
      channel.basicPublish("", IndexerProcess.QUEUE, properties, HistoryMessages.encode(docs));
      if (++unconfirmed == IN_FLIGHT) {
        channel.waitForConfirmsOrDie(60_000);
        unconfirmed = 0;
      }
    }
    channel.waitForConfirmsOrDie(60_000);
  }

  /**
   * Messages waiting in the indexer's queue. The quorum queue's count, as a passive declare reports
   * it, once read 0 while 47,524 messages waited (Solr merging, load 3-5), which ended an ingest
   * window early; so a 0 is read twice more, 300 ms apart, and believed only when every reading
   * agrees.
   */
  long queued() throws Exception {
    long count = ready();
    for (int i = 0; count == 0 && i < 2; i++) {
      Thread.sleep(300);
      count = ready();
    }
    return count;
  }

  /** One reading of the queue's ready messages, as the broker reports it. */
  long ready() throws Exception {
    return channel.queueDeclarePassive(IndexerProcess.QUEUE).getMessageCount();
  }

  @Override
  public void close() throws Exception {
    connection.close();
  }
}
