package io.github.avgateway.jms.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.jms.config.JmsProperties;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The embedded broker's disk check, on a real broker and this machine's disk: with more asked free
 * than any disk has, it reports the disk full and blocks a producer; with the default floor (2 GB)
 * it neither blocks nor reports, whatever share of the disk is used.
 */
class EmbeddedBrokerDiskIT {

  private static final String QUEUE = "av.scan.requests";

  @TempDir Path data;

  private EmbeddedBroker broker(String minDiskFree) {
    JmsProperties properties =
        new Binder(
                new MapConfigurationPropertySource(
                    Map.of(
                        "avgateway.jms.url",
                        "tcp://127.0.0.1:0",
                        "avgateway.jms.embedded.data-dir",
                        data.toString(),
                        "avgateway.jms.embedded.min-disk-free",
                        minDiskFree)))
            .bindOrCreate("avgateway.jms", JmsProperties.class);
    HistoryStreamProperties history =
        new Binder(new MapConfigurationPropertySource(Map.of()))
            .bindOrCreate("avgateway.history", HistoryStreamProperties.class);
    return new EmbeddedBroker(properties, history);
  }

  /** Sends one persistent message to the request queue on a thread of its own. */
  private static CompletableFuture<Void> send(EmbeddedBroker broker, ExecutorService thread) {
    return CompletableFuture.runAsync(
        () -> {
          try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(broker.inVmUrl());
              Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(QUEUE));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            producer.send(session.createTextMessage("one request"));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        thread);
  }

  @Test
  void lessFreeThanTheFloorBlocksProducersAndSaysSo() throws Exception {
    EmbeddedBroker broker = broker("1000000TB");
    ExecutorService thread = Executors.newSingleThreadExecutor();
    broker.start();
    try {
      // the broker looks at its disk every 5 s
      await().atMost(Duration.ofSeconds(30)).until(broker::diskFull);

      CompletableFuture<Void> sent = send(broker, thread);

      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !sent.isDone() && broker.messageCount(QUEUE) == 0);
    } finally {
      broker.stop();
      thread.shutdownNow();
      assertThat(thread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void theDefaultFloorLetsProducersThrough() throws Exception {
    EmbeddedBroker broker = broker("2GB");
    ExecutorService thread = Executors.newSingleThreadExecutor();
    broker.start();
    try {
      // one look at the disk has been taken once a full scan period has passed
      await()
          .during(Duration.ofSeconds(6))
          .atMost(Duration.ofSeconds(8))
          .until(() -> !broker.diskFull());

      send(broker, thread).get(30, TimeUnit.SECONDS);

      assertThat(broker.messageCount(QUEUE)).isEqualTo(1);
    } finally {
      broker.stop();
      thread.shutdownNow();
    }
  }
}
