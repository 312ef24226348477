package io.github.avgateway.jms;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.avgateway.jms.config.JmsProperties;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The holds of {@link AbstractIntakeHoldIT} on the gateway's own consumers ({@code
 * avgateway.jms.intake=consumers}).
 */
class JmsConsumersHoldIT extends AbstractIntakeHoldIT {

  @DynamicPropertySource
  static void ownConsumers(DynamicPropertyRegistry registry) {
    registry.add("avgateway.jms.intake", () -> "consumers");
  }

  @Test
  void theConsumersIntakeIsOn() {
    assertThat(properties.intake()).isEqualTo(JmsProperties.Intake.CONSUMERS);
  }
}
