package io.github.avgateway.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DocumentsPerMessageTest {

  private final DocumentsPerMessage sizes = new DocumentsPerMessage();

  @Test
  void theFirstMessageSetsTheMean() {
    assertThat(sizes.documentsIn(10)).isEqualTo(-1);
    sizes.saw(16);
    assertThat(sizes.documentsIn(10)).isEqualTo(160);
    assertThat(sizes.documentsIn(-1)).isEqualTo(-1);
  }

  @Test
  void followsTheLatestMessages() {
    for (int i = 0; i < 1_000; i++) {
      sizes.saw(1);
    }
    for (int i = 0; i < 400; i++) {
      sizes.saw(16);
    }
    // After a few hundred batches of 16 the light-load past has faded (weight 1/64 each).
    assertThat(sizes.documentsIn(1_000)).isBetween(15_900L, 16_000L);
  }
}
