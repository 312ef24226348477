package io.github.avgateway.solr;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.Availability;
import org.junit.jupiter.api.Test;

class SolrHistoryGateTest {

  private final SolrHistoryGate gate = new SolrHistoryGate();

  @Test
  void upUntilWritesFailOrRetentionFallsBehindAndUpAgainWhenBothRecover() {
    assertThat(gate.accepting()).isEqualTo(Availability.up());

    gate.retentionBehind("old documents remain");
    assertThat(gate.accepting())
        .isEqualTo(Availability.down("Solr history retention is behind: old documents remain"));

    gate.writesFailed("connection refused");
    assertThat(gate.accepting())
        .isEqualTo(Availability.down("Solr history does not accept writes: connection refused"));

    gate.writesAccepted();
    assertThat(gate.accepting()).isInstanceOf(Availability.Down.class);
    gate.retentionCaughtUp();
    assertThat(gate.accepting()).isEqualTo(Availability.up());
  }
}
