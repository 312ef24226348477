package io.github.avgateway.jms.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.jms.config.JmsProperties;
import io.github.avgateway.jms.config.JmsProperties.ClientProtocol;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddedBrokerTest {

  private static final JmsProperties.Tls NO_TLS = new JmsProperties.Tls(false, "", "", "", "");
  private static final List<ClientProtocol> ALL =
      List.of(ClientProtocol.CORE, ClientProtocol.AMQP, ClientProtocol.STOMP);

  @Test
  void acceptorSpeaksTheConfiguredProtocolsAtTheConfiguredAddress() {
    Map<String, Object> params =
        EmbeddedBroker.clientAcceptor("tcp://127.0.0.1:61616", NO_TLS, ALL).getParams();

    assertThat(params)
        .containsEntry("host", "127.0.0.1")
        .containsEntry("port", 61616)
        .containsEntry("protocols", "CORE,AMQP,STOMP")
        .containsEntry("anycastPrefix", "/queue/")
        .containsEntry("multicastPrefix", "/topic/")
        .doesNotContainKey("sslEnabled");
    assertThat(
            EmbeddedBroker.clientAcceptor(
                    "tcp://0.0.0.0:6000?foo=bar",
                    NO_TLS,
                    List.of(ClientProtocol.CORE, ClientProtocol.CORE))
                .getParams())
        .containsEntry("host", "0.0.0.0")
        .containsEntry("port", 6000)
        .containsEntry("protocols", "CORE");
  }

  @Test
  void tlsCoversEveryProtocolOfTheAcceptor() {
    var tls = new JmsProperties.Tls(true, "/etc/avgw/broker.p12", "s3cret", "", "");

    var acceptor = EmbeddedBroker.clientAcceptor("tcp://127.0.0.1:61617", tls, ALL);

    assertThat(acceptor.getParams())
        .containsEntry("protocols", "CORE,AMQP,STOMP")
        .containsEntry("sslEnabled", true)
        .containsEntry("keyStorePath", "/etc/avgw/broker.p12")
        .containsEntry("keyStorePassword", "s3cret");
    assertThat(acceptor.toString()).doesNotContain("s3cret");
  }

  @Test
  void urlWithoutHostAndPortIsRefused() {
    assertThatThrownBy(() -> EmbeddedBroker.clientAcceptor("vm://0", NO_TLS, ALL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tcp://host:port");
  }
}
