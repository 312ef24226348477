package io.github.avgateway.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.Availability;
import org.junit.jupiter.api.Test;

class HistoryBacklogGateTest {

  private final HistoryBacklogGate gate = new HistoryBacklogGate("av.history");

  @Test
  void downFromARefusedHistoryMessageUntilOneIsAccepted() {
    assertThat(gate.intake()).isInstanceOf(Availability.Up.class);
    gate.full("AMQ229102: Address \"av.history\" is full.");
    assertThat(gate.intake())
        .isInstanceOfSatisfying(
            Availability.Down.class,
            down ->
                assertThat(down.why())
                    .startsWith("history backlog full: the broker refuses history on av.history")
                    .contains("is full")
                    .endsWith("intake paused until the history indexer drains it"));
    gate.accepted();
    assertThat(gate.intake()).isInstanceOf(Availability.Up.class);
  }

  @Test
  void theFirstReasonOfAnEpisodeIsKept() {
    gate.full("first");
    gate.full("second");
    assertThat(((Availability.Down) gate.intake()).why()).contains("(first)");
  }
}
