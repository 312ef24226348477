package io.github.avgateway.core.clamd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.core.model.ScanContent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScanSourceTest {

  private static final byte[] TEN = "0123456789".getBytes(StandardCharsets.US_ASCII);

  @Test
  void contentCanBeReopenedForEveryAttempt() throws Exception {
    ScanSource source = ScanSource.of(ScanContent.of(TEN));
    try (InputStream first = source.open()) {
      first.readAllBytes();
    }
    assertThat(source.canOpen()).isTrue();
    try (InputStream second = source.open()) {
      assertThat(second.readAllBytes()).isEqualTo(TEN);
    }
    assertThat(source.declaredSize()).isEqualTo(10);
  }

  @Test
  void aStreamWithinTheBufferedPrefixCanBeSentAgain() throws Exception {
    ScanSource source = ScanSource.of(new ByteArrayInputStream(TEN), 10, 10);
    try (InputStream first = source.open()) {
      assertThat(first.readAllBytes()).isEqualTo(TEN);
    }
    assertThat(source.canOpen()).isTrue();
    try (InputStream second = source.open()) {
      assertThat(second.readAllBytes()).isEqualTo(TEN);
    }
  }

  @Test
  void aStreamPartlyReadPastThePrefixCannotBeSentAgain() throws Exception {
    ScanSource source = ScanSource.of(new ByteArrayInputStream(TEN), -1, 4);
    try (InputStream first = source.open()) {
      assertThat(first.readNBytes(4)).isEqualTo("0123".getBytes(StandardCharsets.US_ASCII));
      assertThat(source.canOpen()).isTrue();
      assertThat(first.read()).isEqualTo('4');
    }
    assertThat(source.canOpen()).isFalse();
    assertThatThrownBy(source::open).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closingTheSourceNeverClosesTheCallersStream() throws Exception {
    boolean[] closed = {false};
    InputStream callers =
        new ByteArrayInputStream(TEN) {
          @Override
          public void close() {
            closed[0] = true;
          }
        };
    ScanSource source = ScanSource.of(callers, 10, 4);
    source.open().close();
    assertThat(closed[0]).isFalse();
  }

  @Test
  void aFailingStreamIsAPayloadFailure() {
    InputStream broken =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw new IOException("socket reset by the broker");
          }
        };
    assertThatThrownBy(() -> ScanSource.of(broken, -1, 4).open())
        .isInstanceOf(PayloadException.class)
        .hasMessageContaining("socket reset by the broker");
  }
}
