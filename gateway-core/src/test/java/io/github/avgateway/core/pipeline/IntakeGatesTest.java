package io.github.avgateway.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.core.port.IntakeGate;
import io.github.avgateway.core.testing.SwitchableGate;
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

  @Test
  void itsGateCountsEveryClosingOfItsGatesAndSeesAClosingThatIsOverAlready() {
    SwitchableGate clamd = new SwitchableGate();
    SwitchableGate backlog = new SwitchableGate();
    IntakeGate gate = new IntakeGates("test", List.of(clamd, backlog)).gate();
    long before = gate.closings();

    assertThat(gate.intakeSince(before)).isEqualTo(Availability.up());
    clamd.blink("clamd away");
    backlog.blink("backlog full");

    assertThat(gate.closings()).isEqualTo(before + 2);
    assertThat(gate.intake()).isEqualTo(Availability.up());
    assertThat(gate.intakeSince(before)).isInstanceOf(Availability.Down.class);
    assertThat(gate.intakeSince(gate.closings())).isEqualTo(Availability.up());
  }

  @Test
  void aGateThatIsDownNowSaysItsOwnReasonWhateverTheCount() {
    SwitchableGate clamd = new SwitchableGate();
    IntakeGate gate = new IntakeGates("test", List.of(clamd)).gate();
    clamd.down("clamd unreachable");

    assertThat(gate.intakeSince(gate.closings())).isEqualTo(Availability.down("clamd unreachable"));
  }

  @Test
  void aGateThatDoesNotCountIsJudgedByItsStateAlone() {
    IntakeGate plain = Availability::up;

    assertThat(plain.closings()).isZero();
    assertThat(plain.intakeSince(0)).isEqualTo(Availability.up());
  }
}
