package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EmbeddedBrokerTest {

  @Test
  void acceptorSpeaksCoreOnlyAtTheConfiguredAddress() {
    assertThat(EmbeddedBroker.coreAcceptor("tcp://127.0.0.1:61616"))
        .isEqualTo("tcp://127.0.0.1:61616?protocols=CORE");
    assertThat(EmbeddedBroker.coreAcceptor("tcp://0.0.0.0:6000?foo=bar"))
        .isEqualTo("tcp://0.0.0.0:6000?protocols=CORE");
  }

  @Test
  void urlWithoutHostAndPortIsRefused() {
    assertThatThrownBy(() -> EmbeddedBroker.coreAcceptor("vm://0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tcp://host:port");
  }
}
