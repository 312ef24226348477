package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.core.port.Availability;
import io.github.avgateway.jms.support.SwitchableGate;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntakeGatesTest {

  @Test
  void noGateMeansUp() {
    assertThat(new IntakeGates(List.of()).intake()).isInstanceOf(Availability.Up.class);
  }

  @Test
  void downWhileAnyGateIsDownWithTheFirstReason() {
    SwitchableGate clamd = new SwitchableGate();
    SwitchableGate solr = new SwitchableGate();
    IntakeGates gates = new IntakeGates(List.of(clamd, solr));

    solr.down("solr refuses writes");
    assertThat(gates.intake()).isEqualTo(Availability.down("solr refuses writes"));
    clamd.down("clamd unreachable");
    assertThat(gates.intake()).isEqualTo(Availability.down("clamd unreachable"));
    clamd.up();
    solr.up();
    assertThat(gates.intake()).isInstanceOf(Availability.Up.class);
  }
}
