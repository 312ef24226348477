package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ClamdEndpointTest {

  @Test
  void parsesHostAndPort() {
    assertThat(ClamdEndpoint.parse("127.0.0.1:3310"))
        .isEqualTo(new ClamdEndpoint("127.0.0.1", 3310));
    assertThat(ClamdEndpoint.parse(" clamd.internal:3311 "))
        .isEqualTo(new ClamdEndpoint("clamd.internal", 3311));
  }

  @Test
  void parsesBracketedIpv6() {
    ClamdEndpoint endpoint = ClamdEndpoint.parse("[::1]:3310");
    assertThat(endpoint).isEqualTo(new ClamdEndpoint("::1", 3310));
    assertThat(endpoint).hasToString("[::1]:3310");
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "127.0.0.1",
        "127.0.0.1:",
        ":3310",
        "host:port",
        "host:0",
        "host:65536",
        "::1:3310"
      })
  void rejectsWhatIsNotHostColonPort(String text) {
    assertThatThrownBy(() -> ClamdEndpoint.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clamd");
  }
}
