package io.github.avgateway.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import org.junit.jupiter.api.Test;

class BacklogSizeTest {

  private final HistoryBacklogGate gate = new HistoryBacklogGate("av.history");
  private final IndexerStatus indexer = new IndexerStatus(Clock.systemUTC());

  @Test
  void unknownUntilAHistoryMessageWasSeen() {
    BacklogSize size = new BacklogSize(() -> 812, gate, indexer);
    assertThat(size.messages()).isEqualTo(812);
    assertThat(size.documents()).isEqualTo(-1);
    assertThat(size.words()).isEqualTo("backlog 812 history messages");
  }

  @Test
  void documentsAreTheCountTimesTheMeanSizeOfTheMessagesSent() {
    gate.accepted(16);
    gate.accepted(16);
    BacklogSize size = new BacklogSize(() -> 812, gate, indexer);
    assertThat(size.documents()).isEqualTo(812 * 16);
    assertThat(size.words()).isEqualTo("backlog about 12,992 documents (812 history messages)");
  }

  @Test
  void anIndexerOnlyProcessUsesTheSizesItTook() {
    indexer.sizes().saw(4);
    assertThat(new BacklogSize(() -> 100, null, indexer).documents()).isEqualTo(400);
    assertThat(new BacklogSize(() -> 100, gate, indexer).documents())
        .as("a scanner that sent nothing yet falls back on its indexer")
        .isEqualTo(400);
  }

  @Test
  void theSentSizesWinOverTheIndexedOnes() {
    indexer.sizes().saw(1);
    gate.accepted(10);
    assertThat(new BacklogSize(() -> 10, gate, indexer).documents()).isEqualTo(100);
  }

  @Test
  void nothingWhereTheBrokerCannotCount() {
    gate.accepted(16);
    BacklogSize size = new BacklogSize(() -> -1, gate, indexer);
    assertThat(size.documents()).isEqualTo(-1);
    assertThat(size.words()).isEmpty();
  }
}
