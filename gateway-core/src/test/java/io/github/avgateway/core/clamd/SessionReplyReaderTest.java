package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SessionReplyReaderTest {

  private static SessionReplyReader reader(String wire) {
    return new SessionReplyReader(new ByteArrayInputStream(wire.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void readsRepliesInTurnAndStripsTheirIds() throws Exception {
    SessionReplyReader reader = reader("1: PONG\0002: stream: OK\0");
    assertThat(reader.read(1)).isEqualTo("PONG");
    assertThat(reader.read(2)).isEqualTo("stream: OK");
  }

  @Test
  void aReplyForAnotherCommandIsAProtocolError() {
    assertThatThrownBy(() -> reader("1: stream: OK\0").read(2))
        .isInstanceOf(ClamdProtocolException.class)
        .hasMessageContaining("command 1 while command 2");
  }

  @Test
  void aReplyWithoutIdIsAProtocolError() {
    assertThatThrownBy(() -> reader("UNKNOWN COMMAND\0").read(1))
        .isInstanceOf(ClamdProtocolException.class)
        .hasMessageContaining("without a session id");
    assertThatThrownBy(() -> reader("stream: OK\0").read(1))
        .isInstanceOf(ClamdProtocolException.class);
  }

  @Test
  void aClosedConnectionIsAProtocolError() {
    assertThatThrownBy(() -> reader("").read(1))
        .isInstanceOf(ClamdProtocolException.class)
        .hasMessage("clamd closed the session");
    assertThatThrownBy(() -> reader("1: stream: O").read(1))
        .isInstanceOf(ClamdProtocolException.class)
        .hasMessageContaining("in the middle of a reply: 1: stream: O");
  }

  @Test
  void anEndlessReplyIsCut() {
    String endless = "1: " + "x".repeat(SessionReplyReader.MAX_REPLY_BYTES + 10) + "\0";
    assertThatThrownBy(() -> reader(endless).read(1))
        .isInstanceOf(ClamdProtocolException.class)
        .hasMessageContaining("longer than");
  }
}
