package io.github.avgateway.load.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.wire.HistoryMessages;
import org.junit.jupiter.api.Test;

class EchoReplyTest {

  @Test
  void anEchosHistoryMessageIsOneTheIndexerReadsWithOneDocumentPerRequest() {
    for (int documents : new int[] {1, 16, EchoReply.MAX_BATCH}) {
      var message = HistoryMessages.decode(EchoReply.history(documents));

      assertThat(message.documents()).hasSize(documents);
      assertThat(message.documents()).allMatch(d -> d.verdict() == Verdict.CLEAN);
    }
  }
}
