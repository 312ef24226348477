package io.github.avgateway.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class IntakeGatesTest {

  @Test
  void upWithoutGates() {
    assertThat(new IntakeGates("test", List.of()).intake()).isInstanceOf(Availability.Up.class);
  }

  @Test
  void downWhenAnyGateIsDownWithTheFirstReason() {
    IntakeGate up = Availability::up;
    IntakeGate solr = () -> Availability.down("history behind");
    IntakeGate clamd = () -> Availability.down("clamd unreachable");

    assertThat(new IntakeGates("test", List.of(up, solr, clamd)).intake())
        .isEqualTo(Availability.down("history behind"));
  }

  @Test
  void followsItsGatesBackUp() {
    AtomicReference<Availability> state = new AtomicReference<>(Availability.down("Solr down"));
    IntakeGates gates = new IntakeGates("test", List.of(state::get));

    assertThat(gates.intake()).isInstanceOf(Availability.Down.class);
    state.set(Availability.up());
    assertThat(gates.intake()).isInstanceOf(Availability.Up.class);
  }
}
