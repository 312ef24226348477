package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.contract.ContractFiles;
import io.github.avgateway.core.model.ScanResult;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.testing.InMemoryHistory;
import io.github.avgateway.core.testing.SwitchableGate;
import io.github.avgateway.core.testing.TestEnv;
import io.github.avgateway.core.testing.TlsStores;
import io.github.avgateway.core.wire.WireNames;
import io.github.avgateway.jms.broker.EmbeddedBroker;
import io.github.avgateway.jms.client.AvScanClient;
import io.github.avgateway.jms.support.FakeDependencies;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * TLS on the caller connection: the embedded broker serves its acceptor with a key store generated
 * by the JDK's keytool; a Core caller and an AMQP 1.0 caller (Qpid JMS, {@code amqps}) that trust
 * the certificate scan over it, a plain connection is refused, and a second gateway in EXTERNAL
 * mode consumes over TLS.
 */
class JmsTlsIT {

  private static final String QUEUE = "av.scan.requests";

  @TempDir Path dir;

  private ConfigurableApplicationContext gateway(String... args) {
    return new SpringApplicationBuilder(GatewayJmsApplication.class, FakeDependencies.class)
        .run(args);
  }

  @Test
  void callersAndAnExternalGatewayScanOverTls() throws Exception {
    TlsStores tls = TlsStores.generate(dir, "store-secret");
    String url = "tcp://127.0.0.1:" + TestEnv.freePort();
    try (ConfigurableApplicationContext broker =
        gateway(
            "--avgateway.jms.url=" + url,
            "--avgateway.jms.embedded.data-dir=" + dir.resolve("artemis"),
            "--avgateway.jms.embedded.persistent=false",
            "--avgateway.jms.embedded.auto-create-queues=true",
            "--avgateway.jms.tls.enabled=true",
            "--avgateway.jms.tls.key-store=" + tls.keyStore(),
            "--avgateway.jms.tls.key-store-password=" + tls.password(),
            "--avgateway.clamd.enabled=false",
            "--avgateway.solr.enabled=false")) {
      String tlsUrl =
          url
              + "?sslEnabled=true&trustStorePath="
              + URLEncoder.encode(tls.trustStore().toString(), StandardCharsets.UTF_8)
              + "&trustStorePassword="
              + tls.password();
      assertThat(scanVia(tlsUrl)).isEqualTo(Verdict.INFECTED);
      assertThat(amqpScanVia(url, tls)).isEqualTo(Verdict.INFECTED.name());
      assertThatThrownBy(() -> scanVia(url + "?callTimeout=5000&initialConnectAttempts=1"))
          .as("a plain connection to the TLS acceptor")
          .isInstanceOf(JMSException.class);

      broker.getBean(SwitchableGate.class).down("only the external gateway consumes (test)");
      InMemoryHistory brokerHistory = broker.getBean(InMemoryHistory.class);
      int before = brokerHistory.size();
      EmbeddedBroker embedded = broker.getBean(EmbeddedBroker.class);
      await().atMost(Duration.ofSeconds(30)).until(() -> embedded.consumerCount(QUEUE) == 0);
      try (ConfigurableApplicationContext external =
          gateway(
              "--avgateway.jms.mode=EXTERNAL",
              "--avgateway.jms.url=" + url,
              "--avgateway.jms.tls.enabled=true",
              "--avgateway.jms.tls.trust-store=" + tls.trustStore(),
              "--avgateway.jms.tls.trust-store-password=" + tls.password(),
              "--avgateway.jms.consumers=1",
              "--avgateway.clamd.enabled=false",
              "--avgateway.solr.enabled=false")) {
        assertThat(scanVia(tlsUrl)).isEqualTo(Verdict.INFECTED);
        // Both gateways' history indexers consume the stream: the document lands in one of them.
        InMemoryHistory externalHistory = external.getBean(InMemoryHistory.class);
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> brokerHistory.size() + externalHistory.size() == before + 1);
      }
    }
  }

  /** The {@code avVerdict} of EICAR sent over AMQP 1.0 with TLS to the acceptor at {@code url}. */
  private static String amqpScanVia(String url, TlsStores tls) throws Exception {
    URI tcp = URI.create(url);
    String amqps =
        "amqps://%s:%d?transport.trustStoreLocation=%s&transport.trustStorePassword=%s"
            .formatted(
                tcp.getHost(),
                tcp.getPort(),
                URLEncoder.encode(tls.trustStore().toString(), StandardCharsets.UTF_8),
                tls.password());
    try (Connection connection = new JmsConnectionFactory(amqps).createConnection()) {
      Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
      TemporaryQueue replies = session.createTemporaryQueue();
      MessageConsumer consumer = session.createConsumer(replies);
      connection.start();
      BytesMessage request = session.createBytesMessage();
      request.writeBytes(ContractFiles.eicar());
      request.setJMSReplyTo(replies);
      session.createProducer(session.createQueue(QUEUE)).send(request);
      Message reply = consumer.receive(Duration.ofSeconds(30).toMillis());
      assertThat(reply).as("reply over amqps").isNotNull();
      return reply.getStringProperty(WireNames.VERDICT);
    }
  }

  private static Verdict scanVia(String url) throws Exception {
    try (AvScanClient client =
        AvScanClient.connect(url, null, null, QUEUE, Duration.ofSeconds(30))) {
      ScanResult result = client.scan(ContractFiles.eicar(), "e.com").get(30, TimeUnit.SECONDS);
      return result.verdict();
    }
  }
}
