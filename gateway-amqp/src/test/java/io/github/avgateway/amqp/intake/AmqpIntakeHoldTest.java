package io.github.avgateway.amqp.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.avgateway.core.testing.SwitchableGate;
import io.github.avgateway.core.transport.IntakeHold;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class AmqpIntakeHoldTest {

  private final SwitchableGate gate = new SwitchableGate();

  @Test
  void anOpenGateHoldsNothingAndGivesNoReason() {
    IntakeHold hold = new AmqpIntakeHold(gate, Duration.ofMillis(5), Duration.ofMinutes(1));

    assertThat(hold.awaitOpen()).isTrue();
    assertThat(hold.why()).isEmpty();
  }

  @Test
  void aClosedGateHoldsUntilItOpensAndKeepsWhyItWasClosed() {
    IntakeHold hold = new AmqpIntakeHold(gate, Duration.ofMillis(5), Duration.ofMinutes(1));
    gate.down("clamd unreachable");

    CompletableFuture<Boolean> held = CompletableFuture.supplyAsync(hold::awaitOpen);
    await().atMost(Duration.ofSeconds(5)).until(() -> !hold.why().isEmpty());
    assertThat(held).as("held while the gate is closed").isNotDone();
    gate.up();

    assertThat(held.join()).isTrue();
    assertThat(hold.why()).isEqualTo("clamd unreachable");
  }

  @Test
  void aHoldEndsWithFalseWhenItsLimitIsSpent() {
    IntakeHold hold = new AmqpIntakeHold(gate, Duration.ofMillis(5), Duration.ofMillis(50));
    gate.down("history backlog full");

    assertThat(hold.awaitOpen()).isFalse();
    assertThat(hold.why()).isEqualTo("history backlog full");
  }
}
