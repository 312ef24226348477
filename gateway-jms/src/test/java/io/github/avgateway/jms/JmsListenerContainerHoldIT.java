package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.jms.config.JmsProperties;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The intake on Spring JMS listener containers ({@code avgateway.jms.intake=listener-container})
 * with the fake scanner and a switchable gate: the holds of {@link AbstractIntakeHoldIT}.
 */
class JmsListenerContainerHoldIT extends AbstractIntakeHoldIT {

  @DynamicPropertySource
  static void listenerContainers(DynamicPropertyRegistry registry) {
    registry.add("avgateway.jms.intake", () -> "listener-container");
  }

  @Test
  void theListenerContainerIntakeIsOn() {
    assertThat(properties.intake()).isEqualTo(JmsProperties.Intake.LISTENER_CONTAINER);
  }
}
